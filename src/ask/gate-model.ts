import { validateModel, type AnswerabilityModel } from '../core/gate/answerability-model.js';
import raw from '../core/gate/model/answerability.json' with { type: 'json' };

/** The committed answerability model (see src/core/gate/model/MODEL_CARD.md), checked once at load. */
export const GATE_MODEL: AnswerabilityModel = validateModel(raw);
