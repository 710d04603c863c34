import { createRequire } from 'node:module';
import { badRequest } from '../../kernel/http/envelope.js';

/**
 * The diagram text a model keeps: BPMN 2.0 XML as Activiti writes it (saved as .bpmn20.xml, UTF-8).
 * The server only accepts text that parses as BPMN definitions with at least one process, so a broken
 * upload never replaces a working model.
 */
interface Moddle {
  fromXML(xml: string, type: string): Promise<{ rootElement: unknown; warnings: unknown[] }>;
}
// bpmn-moddle ships no types; its CommonJS build is loaded with the one method used here typed.
const BpmnModdle = createRequire(import.meta.url)('bpmn-moddle') as new () => Moddle;
const moddle = new BpmnModdle();

export interface ParsedDiagram {
  processIds: string[];
}

export async function checkBpmnXml(xml: string): Promise<ParsedDiagram> {
  if (!xml.trim()) throw badRequest('processModel.xmlMissing');
  let root: { $type: string; rootElements?: { $type: string; id: string }[] };
  try {
    const parsed = await moddle.fromXML(xml, 'bpmn:Definitions');
    root = parsed.rootElement as typeof root;
  } catch (e) {
    throw badRequest('processModel.xmlMalformed', { detail: firstLine(e) });
  }
  const processIds = (root.rootElements ?? []).filter((e) => e.$type === 'bpmn:Process').map((e) => e.id);
  if (processIds.length === 0) throw badRequest('processModel.xmlNoProcess');
  return { processIds };
}

function firstLine(e: unknown): string {
  return (e instanceof Error ? e.message : String(e)).split('\n')[0]!.slice(0, 200);
}

const escapeXml = (s: string) => s.replace(/[<>&"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** What the designer opens for a model never drawn: its process with a start event named 开始. */
export function emptyDiagram(key: string, name: string): string {
  const id = /^[A-Za-z_][\w.-]*$/.test(key) ? key : `process_${key.replace(/[^\w]/g, '_')}`;
  return `<?xml version="1.0" encoding="UTF-8"?>
<definitions xmlns="http://www.omg.org/spec/BPMN/20100524/MODEL" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"
  xmlns:activiti="http://activiti.org/bpmn" xmlns:bpmndi="http://www.omg.org/spec/BPMN/20100524/DI"
  xmlns:omgdc="http://www.omg.org/spec/DD/20100524/DC" xmlns:omgdi="http://www.omg.org/spec/DD/20100524/DI"
  typeLanguage="http://www.w3.org/2001/XMLSchema" expressionLanguage="http://www.w3.org/1999/XPath"
  targetNamespace="http://www.activiti.org/processdef">
  <process id="${escapeXml(id)}" name="${escapeXml(name)}" isExecutable="true">
    <startEvent id="startEvent" name="开始"/>
  </process>
  <bpmndi:BPMNDiagram id="BPMNDiagram_${escapeXml(id)}">
    <bpmndi:BPMNPlane id="BPMNPlane_${escapeXml(id)}" bpmnElement="${escapeXml(id)}">
      <bpmndi:BPMNShape id="BPMNShape_startEvent" bpmnElement="startEvent">
        <omgdc:Bounds x="160" y="160" width="36" height="36"/>
      </bpmndi:BPMNShape>
    </bpmndi:BPMNPlane>
  </bpmndi:BPMNDiagram>
</definitions>
`;
}
