// The offline planner and the local answers to countable questions.
export { createLocalPlanner, planLocally } from './local-planner';
export { answerLocally } from './answer-locally';
