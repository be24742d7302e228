// The host service (src/host/service.ts): time as the Go host writes it.

import assert from "node:assert/strict";
import { test } from "node:test";
import { canonicalNow, rfc3339 } from "../../src/host/service";

test("now is written as Go's time.RFC3339 writes it", () => {
  assert.equal(canonicalNow("2026-11-30T10:15:00+01:00"), "2026-11-30T10:15:00+01:00");
  assert.equal(canonicalNow("2026-11-30T10:15:00.123456+01:00"), "2026-11-30T10:15:00+01:00");
  assert.equal(canonicalNow("2026-11-30T09:15:00+00:00"), "2026-11-30T09:15:00Z");
  assert.equal(canonicalNow("yesterday"), "yesterday");
  assert.equal(rfc3339(new Date(Date.UTC(2026, 10, 30, 9, 15, 0, 999))), "2026-11-30T09:15:00Z");
});
