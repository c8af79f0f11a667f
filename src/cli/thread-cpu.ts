// The thread's CPU times live in src/host/thread-cpu.ts; this name stays for the load generator's import.
export { threadCpuShares, threadCpuTimes, type ThreadCpuShares, type ThreadCpuTimes } from '../host/thread-cpu.js';
