package search

import "strings"

// stopwords are the French and English words too common to rank with
// (articles, pronouns, auxiliaries, prepositions, conjunctions, and the
// letters French elides: l', d', j', qu'…), lowercase as Words gives
// them. They are dropped from notes and queries alike. The French ones
// are written with their accents and, for people who type without them,
// also without (`même`, `meme`; not the rare ones, such as `fûmes`), but a word is matched before folding: a
// word that only folds to a stopword (`thèse`, `these`) is kept.
var stopwords = func() map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(stopEnglish + " " + stopFrench) {
		m[w] = true
	}
	return m
}()

const stopEnglish = `a about above after again against all am an and any are as at be because been
before being below between both but by can could did do does doing down during each few for from
further had has have having he her here hers herself him himself his how i if in into is it its
itself just me more most my myself no nor not now of off on once only or other our ours ourselves
out over own same she should so some such than that the their theirs them themselves then there
these they this those through to too under until up very was we were what when where which while
who whom why will with would you your yours yourself yourselves s t d ll m re ve`

const stopFrench = `à au aux avec ce ces dans de des du elle en et eux il ils je la le les leur
leurs lui ma mais me même mes moi mon ne nos notre nous on ou où par pas pour qu que qui sa se ses
son sur ta te tes toi ton tu un une vos votre vous c l j n y étant suis es est
sommes être sont serai seras sera serons serez seront serais serait serions seriez seraient
étais était étions étiez étaient fus fut fûmes fûtes furent sois soit soyons soyez soient ai as
avons avez ont aurai auras aura aurons aurez auront aurais aurait aurions auriez auraient avais
avait avions aviez avaient eu eus eut eûmes eûtes eurent aie aies ait ayons ayez aient cet cette
ceci cela ça donc or ni car si sans sous chez entre vers plus très aussi comme quand dont lors
meme etre tres ca etant etais etait etions etiez etaient`
