// The fake vault's disk, for pages in a browser (the worker test's and
// bench-plugin's): a read, stat or listing of Obsidian's adapter (Node's
// fs on desktop, Capacitor's bridge on mobile) resolves in a task of its
// own, not in a microtask.

const waiting: (() => void)[] = [];
let channel: MessageChannel | null = null;

/** diskTask resolves in a task of its own (a zero-delay MessageChannel: setTimeout clamps to 4 ms); the fake vault waits on it (FakeVault.io). */
export function diskTask(): Promise<void> {
  if (channel === null) {
    channel = new MessageChannel();
    channel.port1.onmessage = () => waiting.shift()?.();
  }
  const port = channel.port2;
  return new Promise((r) => {
    waiting.push(r);
    port.postMessage(null);
  });
}
