/**
 * A yes/no question about cover, claims, eligibility or permission: "Does it cover cosmetic surgery?",
 * "Are ambulance fees claimable?", "Can I park at a bus stop?", "Is overseas treatment covered?". Its answer
 * may be "no", which a list of exclusions or a prohibition states without repeating the question's verb.
 */
export function isCoverageQuestion(text: string): boolean {
  const t = text.trim();
  if (!/^(?:is|are|does|do|can|could|will|would|may|am|should)\b/i.test(t) && !/\b(?:is|are) (?:there|it)\b.*\?$/i.test(t)) return false;
  return (
    /\b(?:cover(?:s|ed|age)?|claim(?:s|able|ed)?|pay(?:s|able)?|reimburs\w*|eligible|qualif\w*|allowed|permitted|legal|include[sd]?|entitled|subsidi[sz]ed|count)\b/i.test(
      t,
    ) || /^(?:can|could|may|am) i\b/i.test(t)
  );
}
