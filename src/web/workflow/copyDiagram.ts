/**
 * Copy flowchart (spec 2.4): another model's diagram becomes this model's, with the process id and name
 * (and the diagram plane pointing at it) changed to the target model's key and name.
 */
export function retargetDiagram(xml: string, key: string, name: string): string {
  const doc = new DOMParser().parseFromString(xml, 'application/xml');
  if (doc.getElementsByTagName('parsererror').length > 0) throw new Error('bpmn文档导入失败');
  const all = Array.from(doc.getElementsByTagName('*'));
  const process = all.find((el) => el.localName === 'process');
  if (!process) throw new Error('bpmn文档导入失败');
  const oldId = process.getAttribute('id');
  process.setAttribute('id', key);
  process.setAttribute('name', name);
  for (const el of all) {
    if (el.getAttribute('bpmnElement') === oldId) el.setAttribute('bpmnElement', key);
  }
  return new XMLSerializer().serializeToString(doc);
}
