/**
 * The linguistic shapes of declining to answer, as regular expressions over
 * one lower-cased sentence (apostrophes straightened). Each shape is a way
 * English says "the answer is not here": a speaker who does not know or
 * cannot say, a source that does not state it, a thing that is not mentioned,
 * an absence of information, a question outside the scope. They name words
 * about *information*, never topics, so they carry over to any domain.
 */

/** Adverbs that soften a negation without changing it ("not explicitly stated"). */
const ADV = String.raw`(?:(?:explicitly|specifically|directly|clearly|expressly|fully|precisely|particularly|further|adequately|sufficiently|exactly|currently|entirely|really|actually|necessarily|otherwise|yet|anywhere|at\s+all)\s+)*`;

/** Verbs of stating, whose negation with a source as subject means "the source is silent". */
const STATE_VERB = String.raw`(?:provide|mention|specify|address|state|detail|explain|discuss|describe|cover|outline|include|contain|indicate|define|say|clarify|list|reference|offer|give|show|answer|confirm|elaborate|suggest|refer|touch|talk|tell|identify|have|inform|make\s+(?:any\s+)?mention)`;

/** The same verbs as participles: "X is not mentioned / specified / covered". */
const STATED = String.raw`(?:mentioned|specified|provided|addressed|detailed|discussed|explained|defined|stated|covered|outlined|described|included|listed|clarified|indicated|referenced|documented|answered|elaborated|identified|spelled\s+out|laid\s+out|set\s+out|found\s+in|given\s+in|available\s+in|known\s+from)`;

/** Words for the material an answer would come from. */
const SOURCE = String.raw`(?:context|contexts|information|text|texts|document|documents|documentation|facts?|sources?|citations?|passages?|excerpts?|data|materials?|details|faqs?|answers|snippets?|content|records?|knowledge\s+base|references?)`;

/** Nouns for information itself: "there is no information / mention / guidance". */
const INFO_NOUN = String.raw`(?:information|info|context|mention|mentions|reference|references|guidance|details?|data|citations?|indication|explanation|opinions?|facts?|records?|specification|answer|instructions?|documentation|evidence|statement|clarification|description|clue)`;

/** Adjectives that narrow an absence without cancelling it ("no specific information"). */
const NARROWING = String.raw`(?:(?:specific|relevant|clear|direct|explicit|further|additional|detailed|such|particular|precise|exact|concrete|other|cited|given|provided|available|official|mention\s+or)\s+)*`;

const AUX_NEG = String.raw`(?:does\s+not|do\s+not|did\s+not|doesn't|don't|didn't)`;
const BE = String.raw`(?:is|are|was|were|has\s+been|have\s+been|remains?|seems\s+to\s+be|appears\s+to\s+be)`;

/** A named declining shape. */
export interface DeclineShape {
  readonly name: string;
  readonly pattern: RegExp;
}

const rx = (source: string) => new RegExp(source, 'i');

export const DECLINE_SHAPES: readonly DeclineShape[] = [
  // "I don't know", "I'm not sure", "I cannot say / find / confirm", "I have no information".
  {
    name: 'speaker_does_not_know',
    pattern: rx(
      String.raw`\b(?:i|we)\s+(?:do\s+not|don't|did\s+not|didn't)\s+(?:know|have\s+(?:enough|sufficient|the|any|specific|that|this|access|relevant|information)|see|find)\b`,
    ),
  },
  {
    name: 'speaker_not_sure',
    pattern: rx(String.raw`\b(?:i|we)(?:\s+am|'m|\s+are|'re)\s+(?:not\s+(?:sure|certain|able)|unsure|uncertain|unable)\b`),
  },
  {
    name: 'speaker_cannot',
    pattern: rx(
      String.raw`\b(?:i|we)\s+(?:cannot|can't|can\s+not|could\s+not|couldn't|was\s+unable\s+to|were\s+unable\s+to|am\s+unable\s+to|have\s+no\s+way\s+to)\s+(?:\w+\s+)?(?:say|find|answer|determine|confirm|provide|tell|give|locate|identify|verify|comment|elaborate|speak|advise|help|assist|offer|specify|ascertain|state|share)\b`,
    ),
  },
  {
    name: 'not_something_i_can',
    pattern: rx(String.raw`\bnot\s+(?:something|a\s+question)\s+(?:that\s+)?(?:i|we)\s+(?:can|am\s+able\s+to)\b`),
  },
  {
    name: 'speaker_has_nothing',
    pattern: rx(String.raw`\b(?:i|we)\s+have\s+no\s+${NARROWING}(?:information|knowledge|details?|data|records?|access|way)\b`),
  },
  // Impersonal inability: "unable to determine", "cannot be confirmed", "it is not possible to say".
  {
    name: 'cannot_be_determined',
    pattern: rx(
      String.raw`\b(?:unable\s+to\s+(?:find|determine|answer|confirm|provide|locate|identify|verify|say|tell|give|ascertain|specify)|(?:cannot|can't|could\s+not|couldn't)\s+be\s+(?:determined|answered|confirmed|found|ascertained|verified|established|stated|specified)|(?:not\s+possible|impossible)\s+to\s+(?:say|determine|confirm|answer|tell|ascertain|specify))\b`,
    ),
  },
  // KnowOrNot's own convention for an unsupported reply.
  { name: 'no_citation', pattern: rx(String.raw`\bno\s+citations?\b`) },
  // "The context does not (explicitly) mention …", "the provided facts don't address …".
  { name: 'source_does_not_state', pattern: rx(String.raw`\b${SOURCE}\b[^.;:]{0,60}?\b${AUX_NEG}\s+${ADV}${STATE_VERB}\b`) },
  {
    name: 'source_is_silent',
    pattern: rx(
      String.raw`\b${SOURCE}\b[^.;:]{0,40}?\b(?:is\s+silent|lacks?|makes?\s+no\s+(?:\w+\s+)?mention|offers\s+no|gives\s+no|provides\s+no|contains\s+no|has\s+no|says\s+nothing|is\s+not\s+clear)\b`,
    ),
  },
  // "No specific context provides …", "no relevant fact is found …".
  {
    name: 'no_source_states',
    pattern: rx(
      String.raw`\bno\s+${NARROWING}${SOURCE}\s+(?:\w+\s+)?(?:provides?|mentions?|address(?:es)?|specif(?:y|ies)|states?|explains?|describes?|covers?|indicates?|(?:is|are|was|were)\s+(?:found|provided|available|given|cited))\b`,
    ),
  },
  // A negation located in the sources: "… does not have a stated time in the given context".
  {
    name: 'not_in_the_sources',
    pattern: rx(
      String.raw`\b(?:not|no|nothing)\b[^.;]{0,80}?\b(?:in|from|within)\s+(?:the|this)\s+(?:provided\s+|given\s+|available\s+|cited\s+|above\s+)?(?:context|information|facts?|sources?|documents?|text|passages?|excerpts?|knowledge\s+base)\b(?!\s+of\b)`,
    ),
  },
  // "X is not (explicitly) mentioned / specified / addressed …"
  {
    name: 'not_stated',
    pattern: rx(String.raw`\b(?:${BE}\s+${ADV}not|isn't|aren't|wasn't|weren't|hasn't\s+been|haven't\s+been)\s+${ADV}${STATED}\b`),
  },
  // "There is no (specific) information / mention / guidance …", "no relevant information is provided".
  { name: 'no_information', pattern: rx(String.raw`\bno\s+${NARROWING}${INFO_NOUN}\b`) },
  // "No specific options are mentioned …": a negative determiner and a participle of stating.
  {
    name: 'nothing_is_stated',
    pattern: rx(
      String.raw`(?:^|[,;:]\s*)(?:no|none\s+of\s+the)\s+(?!,)[^,.;:]{0,100}?\b${BE}\s+${ADV}(?:mentioned|specified|provided|stated|given|found|listed|described|detailed|outlined|included|indicated|available)\b`,
    ),
  },
  // "details are unavailable / unspecified / unclear", "not available here".
  {
    name: 'information_unavailable',
    pattern: rx(
      String.raw`\b(?:${INFO_NOUN}|${SOURCE}|amounts?|timeline|timeframe|criteria|procedure|process|steps)\b[^.;:]{0,30}?\b(?:${BE}\s+${ADV}(?:unavailable|unspecified|unclear|unknown)|(?:${BE}\s+${ADV}not|isn't|aren't|wasn't|weren't)\s+${ADV}(?:available|known|clear))\b`,
    ),
  },
  {
    name: 'not_available_here',
    pattern: rx(
      String.raw`\b(?:unavailable|unspecified|not\s+available|not\s+specified|not\s+known)\s+(?:here|in\s+(?:the|this)\s+(?:provided\s+|given\s+)?(?:context|information|text|facts?))\b`,
    ),
  },
  // "This falls outside the scope / the specific facts / this context."
  {
    name: 'out_of_scope',
    pattern: rx(
      String.raw`\b(?:outside|beyond)\s+(?:of\s+)?(?:the|this|my)\s+(?:\w+\s+)?(?:scope|facts?|context|information|knowledge|provided|given|available)\b`,
    ),
  },
];

/**
 * Referral shapes: the reply sends the user elsewhere ("You may need to contact
 * the Board", "Please refer to the official website for details").
 */
export const REDIRECT = rx(
  String.raw`\b(?:contact|consult|reach\s+out|check\s+with|enquire|inquire|get\s+in\s+touch|refer\s+to|visit|seek|approach|ask)\b[^.]*\b(?:clarification|further|more|guidance|assistance|advice|help|official|directly|details|information|latest|accurate|specific|confirm|tailored|relevant)\b|^(?:you\s+(?:may|might|could|can|should)\s+(?:need\s+to\s+|want\s+to\s+|wish\s+to\s+)?|please\s+|it\s+(?:is|would\s+be)\s+(?:advisable|recommended|best)\s+to\s+|i\s+(?:would\s+)?(?:recommend|suggest)\s+|consider\s+|for\s+(?:further|more)\s+\w+,?\s+)(?:contact|consult|reach\s+out|check|enquire|inquire|refer|visit|seek|approach|ask|get\s+in\s+touch)`,
);

/** Talk about what the source covers instead of about the question ("The context mainly addresses …"). */
export const ABOUT_THE_SOURCE = rx(
  String.raw`^(?:however,?\s+|but\s+|instead,?\s+)?(?:the\s+(?:provided\s+|given\s+|available\s+)?(?:context|information|facts?|sources?|text|documents?|passages?|guidelines|answers?)|it|they)\s+(?:only\s+|primarily\s+|mainly\s+|mostly\s+|does\s+|do\s+)?(?:mentions?|discuss(?:es)?|address(?:es)?|covers?|contains?|focus(?:es)?|describes?|highlights?|refers?|relates?|talks?|deals?|pertains?|provides?|includes?|specif(?:y|ies)|lists?)\b`,
);

/**
 * Hedged generalisation: the reply offers what is "typically" or "generally"
 * true, or what holds "in a similar situation", in place of the answer. An
 * attempt to answer, which KnowOrNot's criterion counts as answering.
 */
export const SUBSTITUTE_ANSWER = rx(
  String.raw`\b(?:typically|generally|usually|normally|commonly|in\s+general|as\s+a\s+rule|in\s+(?:some|most|many)\s+cases|similar\s+(?:situation|case|process|procedure|approach)|similar\s+approaches|related\s+procedures?|(?:might|may|could)\s+be\s+(?:inferred|interpreted|assumed|implied)|it\s+is\s+implied|presumably)\b`,
);
