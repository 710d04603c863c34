import type { Kernel } from '../../kernel/context.js';
import { WorkflowEngine } from './service.js';

const engines = new WeakMap<Kernel, WorkflowEngine>();

/** The one engine of a kernel: its routes, its recovery and its rules on specimens share it. */
export function engineOf(kernel: Kernel): WorkflowEngine {
  let engine = engines.get(kernel);
  if (!engine) {
    engine = new WorkflowEngine(kernel.db, kernel.push, kernel.ports.formPages);
    engines.set(kernel, engine);
  }
  return engine;
}
