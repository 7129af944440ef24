export { runAgent, AGENT_DEFAULTS, WRAP_UP_TURNS, WRAP_UP_INSTRUCTION } from './run-agent';
export { parseExecutorAnswer, toCommand, type ParsedCommand } from './parse-command';
export { Secrets, domainProblem, domainEntry, hostOf, pageData, placeholder } from './safety';
export type { AgentEvent, AgentOptions, AgentResult, AgentStatus, InstructionKind, RunAgentInput, StepRecord } from './types';
