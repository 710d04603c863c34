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

interface Moddle {
  fromXML(xml: string): Promise<{ rootElement: { rootElements?: Linked[] } }>;
  toXML(element: unknown): Promise<{ xml: string }>;
}

/**
 * The XML ready for bpmn-js: as it is when it has a layout, else with one generated. The layout
 * follows each element's outgoing flows, so links a file left out are written in first (with the
 * diagram's own moddle, when given) and the flow reads left to right as drawn by hand.
 */
export async function withLayout(xml: string, moddle?: Moddle): Promise<{ xml: string; laidOut: boolean }> {
  if (!xml.trim() || hasLayout(xml)) return { xml, laidOut: false };
  let linked = xml;
  if (moddle) {
    const { rootElement } = await moddle.fromXML(xml);
    for (const root of rootElement.rootElements ?? []) linkFlows(root);
    linked = (await moddle.toXML(rootElement)).xml;
  }
  return { xml: await layoutProcess(linked), laidOut: true };
}

/**
 * A model some other tool wrote: it names another exporter, or (naming none) came as a file from
 * outside or without a layout. A model of ours without the stamp (a new one, one saved before the
 * stamp existed) is not: it is held to the lab's rules as before.
 */
export function isForeign(definitions: { exporter?: string }, fromOutside: boolean): boolean {
  if (definitions.exporter === DESIGNER_EXPORTER) return false;
  return Boolean(definitions.exporter) || fromOutside;
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
