export { runAgent, AGENT_DEFAULTS, WRAP_UP_TURNS, WRAP_UP_INSTRUCTION } from './run-agent';
export { parseExecutorAnswer, toCommand, type ParsedCommand } from './parse-command';
export { Secrets, domainProblem, domainEntry, hostOf, pageData, placeholder } from './safety';
export { describeCommand, outcomeLine } from './describe-command';
export type { AgentEvent, AgentNotice, AgentOptions, AgentResult, AgentStatus, InstructionKind, RunAgentInput, StepRecord, TurnOutput } from './types';
