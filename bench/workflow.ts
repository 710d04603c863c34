import { createServer, type Server } from 'node:http';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { build } from 'vite';
import type { Page } from 'playwright-core';
import { startServer, DEMO_PASSWORD } from '../tests/support/server';
import { launchBrowser } from '../tests/support/browser';
import { buildWebApp, webRoot } from '../tests/support/build-app';
import { ms, ratio, type Bench, benchContext } from './measure';

const dist = webRoot;

/** A chain of `tasks` user tasks with their flows and layout: 2 × tasks + 3 elements in all. */
export function largeDiagram(tasks: number): string {
  const nodes: string[] = ['<startEvent id="start" name="开始"/>'];
  const flows: string[] = [];
  const shapes: string[] = [
    '<bpmndi:BPMNShape id="start_di" bpmnElement="start"><dc:Bounds x="0" y="20" width="36" height="36"/></bpmndi:BPMNShape>',
  ];
  const edges: string[] = [];
  const at = (i: number) => ({ x: 100 + (i % 40) * 150, y: Math.floor(i / 40) * 120 });
  let previous = 'start';
  let prevRight = { x: 36, y: 38 };
  for (let i = 0; i < tasks; i++) {
    const id = `task${i}`;
    const { x, y } = at(i);
    nodes.push(`<userTask id="${id}" name="任务${i}" activiti:candidateGroups="1001" activiti:formKey="1"/>`);
    shapes.push(
      `<bpmndi:BPMNShape id="${id}_di" bpmnElement="${id}"><dc:Bounds x="${x}" y="${y}" width="100" height="80"/></bpmndi:BPMNShape>`,
    );
    flows.push(`<sequenceFlow id="f${i}" sourceRef="${previous}" targetRef="${id}"/>`);
    edges.push(
      `<bpmndi:BPMNEdge id="f${i}_di" bpmnElement="f${i}"><di:waypoint x="${prevRight.x}" y="${prevRight.y}"/><di:waypoint x="${x}" y="${y + 40}"/></bpmndi:BPMNEdge>`,
    );
    previous = id;
    prevRight = { x: x + 100, y: y + 40 };
  }
  nodes.push('<endEvent id="end" name="完成"/>');
  flows.push(`<sequenceFlow id="fEnd" sourceRef="${previous}" targetRef="end"/>`);
  const end = at(tasks);
  shapes.push(
    `<bpmndi:BPMNShape id="end_di" bpmnElement="end"><dc:Bounds x="${end.x}" y="${end.y + 22}" width="36" height="36"/></bpmndi:BPMNShape>`,
  );
  edges.push(
    `<bpmndi:BPMNEdge id="fEnd_di" bpmnElement="fEnd"><di:waypoint x="${prevRight.x}" y="${prevRight.y}"/><di:waypoint x="${end.x}" y="${end.y + 40}"/></bpmndi:BPMNEdge>`,
  );
  return `<?xml version="1.0" encoding="UTF-8"?>
<definitions xmlns="http://www.omg.org/spec/BPMN/20100524/MODEL" xmlns:activiti="http://activiti.org/bpmn"
  xmlns:bpmndi="http://www.omg.org/spec/BPMN/20100524/DI" xmlns:dc="http://www.omg.org/spec/DD/20100524/DC"
  xmlns:di="http://www.omg.org/spec/DD/20100524/DI" targetNamespace="bench">
  <process id="bench" name="bench" isExecutable="true">${[...nodes, ...flows].join('')}</process>
  <bpmndi:BPMNDiagram id="d"><bpmndi:BPMNPlane id="p" bpmnElement="bench">${[...shapes, ...edges].join('')}</bpmndi:BPMNPlane></bpmndi:BPMNDiagram>
</definitions>`;
}

/** Serves a built folder over HTTP (module scripts do not load from file://). */
function serve(root: string): Promise<{ url: string; server: Server }> {
  const server = createServer((req, res) => {
    const file = path.join(
      root,
      decodeURIComponent((req.url ?? '/').split('?')[0]!) === '/'
        ? 'index.html'
        : decodeURIComponent(req.url!.split('?')[0]!),
    );
    try {
      const body = readFileSync(file);
      res.writeHead(200, {
        'content-type': file.endsWith('.js') ? 'text/javascript' : file.endsWith('.css') ? 'text/css' : 'text/html',
      });
      res.end(body);
    } catch {
      res.writeHead(404).end();
    }
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve({ url: `http://127.0.0.1:${(server.address() as { port: number }).port}`, server }),
    ),
  );
}

async function importTimes(page: Page, xml: string): Promise<{ bare: number; ours: number }> {
  const bare: number[] = [];
  const ours: number[] = [];
  // Alternating runs after a warm-up of each, so neither gets the warmer JIT.
  for (let run = 0; run < 6; run++) {
    for (const kind of ['bare', 'ours'] as const) {
      const t = await page.evaluate(([k, x]) => window.benchImport!(k as 'bare' | 'ours', x!), [kind, xml]);
      if (run > 0) (kind === 'bare' ? bare : ours).push(t);
    }
  }
  const median = (a: number[]) => a.sort((p, q) => p - q)[Math.floor(a.length / 2)]!;
  return { bare: median(bare), ours: median(ours) };
}

/** Does any script the signed-in shell loaded carry diagram-js? */
async function shellHasBpmn(url: string, page: Page): Promise<{ files: number; bpmn: string[] }> {
  const scripts = new Set<string>();
  page.on('response', (r) => {
    const p = new URL(r.url()).pathname;
    if (p.endsWith('.js')) scripts.add(p);
  });
  await page.goto(`${url}/login`, { waitUntil: 'networkidle' });
  await page.getByPlaceholder('用户名').fill('admin');
  await page.getByPlaceholder('密码').fill(DEMO_PASSWORD);
  await page.getByRole('button', { name: /登\s*录/ }).click();
  await page.locator('.dashboard-welcome').waitFor();
  await page.waitForLoadState('networkidle');
  const bpmn = [...scripts].filter((s) => readFileSync(path.join(dist, s), 'utf8').includes('djs-container'));
  return { files: scripts.size, bpmn };
}

export const workflowBench: Bench = {
  title: 'Workflow designer (production build, headless Chromium)',
  async run() {
    await buildWebApp();
    const outDir = mkdtempSync(path.join(tmpdir(), 'lims-bench-bpmn-'));
    await build({
      configFile: false,
      logLevel: 'error',
      root: path.resolve(import.meta.dirname, 'workflow-page'),
      base: './',
      build: { outDir, emptyOutDir: true, chunkSizeWarningLimit: 5000 },
    });
    const [server, browser, page] = await Promise.all([
      startServer({ LOG_LEVEL: 'error' }),
      launchBrowser(),
      serve(outDir),
    ]);
    try {
      const context = await benchContext(browser, { viewport: { width: 1400, height: 900 } });
      const shell = await shellHasBpmn(server.url, await context.newPage());
      const bench = await context.newPage();
      await bench.goto(`${page.url}/index.html`);
      await bench.waitForFunction(() => typeof window.benchImport === 'function');
      const xml = largeDiagram(749);
      const elements = (xml.match(/<(userTask|startEvent|endEvent|sequenceFlow) /g) ?? []).length;
      const t = await importTimes(bench, xml);
      const lint = await bench.evaluate((x) => window.benchLint!(x), xml);
      return [
        [
          'bpmn-js in login + shell + dashboard JS',
          shell.bpmn.length === 0 ? `absent (${shell.files} files checked)` : `PRESENT in ${shell.bpmn.join(', ')}`,
        ],
        [`import ${elements} elements: bare bpmn-js Modeler (median)`, ms(t.bare)],
        [`import ${elements} elements: our designer modeler (median)`, ms(t.ours)],
        ['ratio ours / bare (goal ≤ 1.1×)', ratio(t.ours, t.bare)],
        [
          `then the live check (bpmnlint + lab rules) of the ${elements} elements`,
          `${ms(lint.ms)} (${lint.issues} issues)`,
        ],
      ];
    } finally {
      await browser.close();
      await server.dispose();
      page.server.close();
      rmSync(outDir, { recursive: true, force: true });
    }
  },
};
