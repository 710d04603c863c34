/**
 * The comparator of `npm run bench` (bench/workflow.ts): a bare bpmn-js Modeler and the designer's
 * configured one (Activiti/LIMS moddle, properties panel, our palette, context pad and names), built
 * for production and timed importing the same diagram in the same page. Never part of the app.
 */
import Modeler from 'bpmn-js/lib/Modeler';
import { BpmnPropertiesPanelModule, BpmnPropertiesProviderModule } from 'bpmn-js-properties-panel';
import { moddleExtensions } from '../../src/web/workflow/designer/moddle';
import { limsDesignerModule } from '../../src/web/workflow/designer/modules';
import { lintDiagram } from '../../src/web/workflow/designer/lint';

declare global {
  interface Window {
    benchImport?: (kind: 'bare' | 'ours', xml: string) => Promise<number>;
    benchLint?: (xml: string) => Promise<{ ms: number; issues: number }>;
  }
}

function create(kind: 'bare' | 'ours'): Modeler {
  const container = document.getElementById(kind)!;
  container.innerHTML = '';
  if (kind === 'bare') return new Modeler({ container });
  return new Modeler({
    container,
    moddleExtensions,
    propertiesPanel: { parent: document.getElementById('panel') },
    additionalModules: [BpmnPropertiesPanelModule, BpmnPropertiesProviderModule, limsDesignerModule],
  });
}

/** Ms from handing the XML to bpmn-js until the diagram is imported and a frame has been painted. */
window.benchImport = async (kind, xml) => {
  const modeler = create(kind);
  const start = performance.now();
  await modeler.importXML(xml);
  await new Promise((done) => requestAnimationFrame(() => setTimeout(done, 0)));
  const elapsed = performance.now() - start;
  modeler.destroy();
  return elapsed;
};

/**
 * The designer's live check (bpmnlint with our lab rules), which runs once an import has settled: off the
 * import's path, but the main thread is the user's while it runs.
 */
window.benchLint = async (xml) => {
  const modeler = create('ours');
  await modeler.importXML(xml);
  const start = performance.now();
  const issues = await lintDiagram(modeler.getDefinitions());
  const elapsed = performance.now() - start;
  modeler.destroy();
  return { ms: elapsed, issues: issues.length };
};
