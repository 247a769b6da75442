export { Supervisor, type LoopState, type LoopStatus, type SupervisedLoop, type SupervisorOptions } from './supervisor.js';
export { describeError, isTransientError } from './transient-error.js';
