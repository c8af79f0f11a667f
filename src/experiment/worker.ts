/**
 * Worker thread of a parallel sweep: receives run specs, simulates them one after another with one reused
 * `RunContext`, and posts each result back.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { RunContext, runExperiment } from './runner.js';
import type { RunSpec } from './spec.js';

export interface WorkerRequest {
  readonly index: number;
  readonly spec: RunSpec;
  readonly settings: Record<string, unknown>;
}

const port = parentPort;
if (port) {
  const context = new RunContext((workerData as { baseDirectory: string }).baseDirectory);
  port.on('message', (request: WorkerRequest | null) => {
    if (request === null) {
      port.close();
      return;
    }
    runExperiment(request.spec, context, request.index, request.settings).then(
      (result) => port.postMessage({ ok: true, result }),
      (error: unknown) => port.postMessage({ ok: false, index: request.index, message: error instanceof Error ? error.message : String(error) }),
    );
  });
}
