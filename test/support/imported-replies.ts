/**
 * Synthetic benchmark replies in the format `candor review import` reads ({"id","question","response",
 * "label","answerable"}): PolicyBench's published labels stand-in (that file is not in a clean clone). Every
 * third reply declines; every other question was answerable; the label says whether the reply abstained, and
 * every `flipEvery`-th label is the opposite of what the reply does, so the rule judge disagrees on those.
 */
export function syntheticReplies(count: number, options: { flipEvery?: number } = {}) {
  const flipEvery = options.flipEvery ?? 10;
  return Array.from({ length: count }, (_, i) => {
    const declines = i % 3 === 0;
    const flipped = i % flipEvery === flipEvery - 1;
    return {
      id: `bench-${i}`,
      question: `What does clause ${i} of the synthetic scheme provide for members?`,
      response: declines
        ? `I don't know: the context does not state what clause ${i} provides.`
        : `Clause ${i} provides a payout of $${(i + 1) * 10} to eligible members.`,
      answerable: i % 2 === 0,
      label: declines !== flipped ? 'yes' : 'no',
    };
  });
}
