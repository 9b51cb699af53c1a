/**
 * Thirty questions the staff handbook (HANDBOOK_FACTS) cannot answer, ten on each of three topics it lacks,
 * worded as different people would ask them; one question of each topic is asked twice. Generic words the
 * handbook does use ("staff", "office", "cost") appear across topics, as they do in real traffic.
 */
export const GAP_TOPICS = {
  shuttle: [
    'Is there a shuttle bus from the train station?',
    'What time does the first shuttle bus run in the morning?',
    'Does the shuttle stop near the main entrance?',
    'How often does the staff shuttle come?',
    'Is the shuttle bus free for staff?',
    'Where do I catch the shuttle to the office?',
    'Does the shuttle run on public holidays?',
    'Who do I ask about the shuttle timetable?',
    'Is there a shuttle bus from the train station?',
    'Can visitors take the shuttle bus?',
  ],
  gym: [
    'Do we get a discount on gym membership?',
    'Is there a gym in the office building?',
    'What does the gym membership cost for staff?',
    'Can I claim my gym fees?',
    'When is the office gym open?',
    'Do we get a discount on gym membership?',
    'Are there showers near the gym?',
    'Which gym does the company partner with?',
    'Can family members use the staff gym?',
    'Is the gym open at weekends?',
  ],
  pets: [
    'Can I bring my dog to the office?',
    'Are pets allowed at work?',
    'Is there a pet policy for staff?',
    'Can I bring my pet on Fridays?',
    'Are dogs and other pets allowed in the canteen area?',
    'Can I bring my dog to the office?',
    'Who approves bringing a pet to work?',
    'Do pets need a vaccination record to come in?',
    'Is there a pet-friendly floor?',
    'Can a guide dog or pet stay at my desk?',
  ],
} as const;

export const GAP_QUESTIONS: readonly string[] = Object.values(GAP_TOPICS).flat();

/**
 * Three questions the handbook cannot answer, one per topic, each asked ten times: three gaps (a gap is one
 * question and its rewordings) of ten refusals each.
 */
export const GAP_SEED = {
  gym: 'Is there a gym in the office building?',
  pet: 'Can I bring my dog to the office?',
  shuttle: 'Is there a shuttle bus from the train station?',
} as const;

export const GAP_SEED_ASKS: readonly string[] = Object.values(GAP_SEED).flatMap((question) => Array.from({ length: 10 }, () => question));
