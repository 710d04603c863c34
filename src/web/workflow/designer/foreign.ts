import { layoutProcess } from 'bpmn-auto-layout';
import { DESIGNER_EXPORTER } from '../../../shared/workflow/labRules';

/**
 * Models from elsewhere (issue 22): many exported files carry no diagram layout, which bpmn-js needs
 * to draw anything. The layout is generated (bpmn-auto-layout) before import, and saved with the
 * model from then on. A model another tool wrote keeps its exporter when saved, so the lab's rules for
 * the designer's own models are asked only of the tasks drawn here (lint.ts), never of imported ones.
 */

/** Whether any process element has a shape: a file without (or with an empty diagram) needs a layout. */
export function hasLayout(xml: string): boolean {
  return /<(\w+:)?BPMNShape\b/.test(xml);
}

/** The XML ready for bpmn-js: as it is when it has a layout, else with one generated. */
export async function withLayout(xml: string): Promise<{ xml: string; laidOut: boolean }> {
  if (!xml.trim() || hasLayout(xml)) return { xml, laidOut: false };
  return { xml: await layoutProcess(xml), laidOut: true };
}

/** A model some other tool wrote (its exporter is not ours, and it has content). */
export function isForeign(definitions: { exporter?: string; rootElements?: unknown[] }): boolean {
  return definitions.exporter !== DESIGNER_EXPORTER && (definitions.rootElements?.length ?? 0) > 0;
}

interface Linked {
  $type: string;
  flowElements?: Linked[];
  sourceRef?: Linked & { outgoing?: Linked[] };
  targetRef?: Linked & { incoming?: Linked[] };
}

/**
 * Files often leave out <incoming>/<outgoing>; the server rebuilds them from the flows (validate.ts),
 * and so does the designer before its live check, so both agree on what is connected.
 */
export function linkFlows(scope: Linked): void {
  for (const el of scope.flowElements ?? []) {
    if (el.flowElements) linkFlows(el);
    if (el.$type !== 'bpmn:SequenceFlow') continue;
    if (el.sourceRef) {
      const out = (el.sourceRef.outgoing ??= []);
      if (!out.includes(el)) out.push(el);
    }
    if (el.targetRef) {
      const into = (el.targetRef.incoming ??= []);
      if (!into.includes(el)) into.push(el);
    }
  }
}
