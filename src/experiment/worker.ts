/**
 * Worker thread of a parallel sweep: receives batches of run specs, simulates them one after another with one
 * reused `RunContext`, and posts each result back.
 */
import { parentPort, workerData, type MessagePort } from 'node:worker_threads';
import { RunContext, runExperiment } from './runner.js';
import type { RunSpec } from './spec.js';

/** Runs to simulate in order (they share a sender), or null to stop. */
export type WorkerRequest = ReadonlyArray<{
  readonly index: number;
  readonly spec: RunSpec;
  readonly settings: Record<string, unknown>;
}>;

const port = parentPort;
if (port) {
  const context = new RunContext((workerData as { baseDirectory: string }).baseDirectory);
  port.on('message', (request: WorkerRequest | null) => {
    if (request === null) {
      port.close();
      return;
    }
    void runBatch(port, context, request);
  });
}

async function runBatch(port: MessagePort, context: RunContext, batch: WorkerRequest): Promise<void> {
  for (const run of batch) {
    try {
      port.postMessage({ ok: true, result: await runExperiment(run.spec, context, run.index, run.settings) });
    } catch (error: unknown) {
      port.postMessage({
        ok: false,
        index: run.index,
        message: error instanceof Error ? error.message : String(error),
      });
      return;
    }
  }
}
