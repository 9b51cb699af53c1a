/**
 * English function words plus question scaffolding ("can", "how", "please").
 * They carry no topic, so neither retrieval nor coverage should count them.
 */
export const STOPWORDS: ReadonlySet<string> = new Set(
  `a about above after again against all also am an and any are aren as at be because been before
  being below between both but by can cannot could couldn did didn do does doesn doing don down during
  each either else ever few for from further get gets getting got had hadn has hasn have haven having he her
  here hers herself him himself his how however i if in into is isn it its itself just let like
  may me might more most must mustn my myself need needs no nor not now of off on once only or other ought our
  ours ourselves out over own please same shall shan she should shouldn so some such than that the their
  theirs them themselves then there these they this those through thus to too under until up upon us
  very via was wasn we were weren what whats when where whether which while who whom whose why will
  with within without won would wouldn yes yet you your yours yourself yourselves
  s t d ll m o re ve y etc e g ie eg`
    .split(/\s+/)
    .filter(Boolean),
);
