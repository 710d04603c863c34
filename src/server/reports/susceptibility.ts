import type { Locale } from '../../shared/i18n/messages.js';
import type { Kernel } from '../kernel/context.js';
import type { Queryable } from '../kernel/db/database.js';
import { tableRow, type TableColumns } from './pdfTable.js';

/** One antibiotic of an isolate as the report prints it: the reading with its unit and the server's category. */
export interface SusceptibilityLine {
  antibiotic: string;
  reading: string;
  category: string;
}

/** An isolate of the specimen: its number and organism, the tables its results were read with, and its lines. */
export interface IsolateSection {
  heading: string;
  colonyCount: string;
  versions: string[];
  guidelines: string[];
  lines: SusceptibilityLine[];
}

const WORDS = {
  'zh-CN': {
    title: '药敏结果',
    isolate: (n: number, organism: string) => `分离株 ${n}：${organism}`,
    colonyCount: '菌落计数',
    version: '判读依据（折点版本）',
    antibiotic: '抗生素',
    reading: '结果（MIC / 抑菌圈直径）',
    category: '判读',
    categories: { S: 'S 敏感', I: 'I 中介', SDD: 'SDD 剂量依赖敏感', R: 'R 耐药' } as Record<string, string>,
    eucastI: 'I 增加暴露下敏感',
    legend: (g: string[]) =>
      g.includes('EUCAST') ? 'EUCAST：I 表示增加给药剂量或暴露时敏感。' : 'CLSI：I 中介；SDD 剂量依赖敏感。',
  },
  'en-US': {
    title: 'Antimicrobial susceptibility',
    isolate: (n: number, organism: string) => `Isolate ${n}: ${organism}`,
    colonyCount: 'Colony count',
    version: 'Interpreted with (breakpoint version)',
    antibiotic: 'Antibiotic',
    reading: 'Reading (MIC / zone diameter)',
    category: 'Interpretation',
    categories: {
      S: 'S susceptible',
      I: 'I intermediate',
      SDD: 'SDD susceptible-dose dependent',
      R: 'R resistant',
    } as Record<string, string>,
    eucastI: 'I susceptible, increased exposure',
    legend: (g: string[]) =>
      g.includes('EUCAST')
        ? 'EUCAST: I means susceptible when exposure is increased.'
        : 'CLSI: I intermediate; SDD susceptible-dose dependent.',
  },
};

const text = (v: unknown) => (v === undefined || v === null ? '' : String(v));

/**
 * The susceptibility of a specimen's isolates, read from the records the microbiology screens keep
 * (through the kernel's record store): each interpreted result with the category and the breakpoint
 * version the server read it with. No isolate: no section.
 */
export async function susceptibilitySection(
  kernel: Kernel,
  tx: Queryable,
  orgId: number,
  barcode: string,
  locale: Locale,
): Promise<IsolateSection[] | undefined> {
  const isolates = await kernel.records.find(tx, 'isolate', orgId, { barcode }, { orderBy: 'isolateNo' });
  if (isolates.length === 0) return undefined;
  const w = WORDS[locale];
  const sections: IsolateSection[] = [];
  for (const isolate of isolates) {
    const panel = await kernel.records.get(tx, 'antibioticCombination', orgId, isolate.data.panel);
    // In the panel's report order; antibiotics added beside the panel after it.
    const rank = (id: unknown) => {
      const at = (panel?.data.antibiotics ?? []).indexOf(Number(id));
      return at < 0 ? Number.MAX_SAFE_INTEGER : at;
    };
    const results = (await kernel.records.find(tx, 'susceptibilityResult', orgId, { isolate: isolate.id }))
      .filter((r) => r.data.interpretation)
      .sort((a, b) => rank(a.data.antibiotic) - rank(b.data.antibiotic) || a.id - b.id);
    const species = await kernel.records.get(tx, 'bacterialSpecies', orgId, isolate.data.species);
    const colony = await kernel.records.get(tx, 'colonyCount', orgId, isolate.data.colonyCount);
    const names = await kernel.records.titles(
      tx,
      'antibiotic',
      orgId,
      results.map((r) => Number(r.data.antibiotic)),
    );
    const organism = `${text(species?.data.name)} ${text(species?.data.latinName)}`.trim();
    sections.push({
      heading: w.isolate(Number(isolate.data.isolateNo ?? sections.length + 1), organism),
      colonyCount: text(colony?.data.resultText),
      versions: [...new Set(results.map((r) => text(r.data.breakpointVersion)))],
      guidelines: [...new Set(results.map((r) => text(r.data.guideline)))],
      lines: results.map((r) => {
        const category = text(r.data.interpretation);
        return {
          antibiotic: names.get(Number(r.data.antibiotic)) ?? '',
          reading: r.data.method === 'mic' ? `MIC ${text(r.data.mic)} mg/L` : `${text(r.data.zoneMm)} mm`,
          category:
            category === 'I' && r.data.guideline === 'EUCAST' ? w.eucastI : (w.categories[category] ?? category),
        };
      }),
    });
  }
  return sections;
}

/** Prints the isolates below the results: a heading per isolate, its breakpoint version, one line per antibiotic. */
export function drawSusceptibility(
  doc: PDFKit.PDFDocument,
  isolates: IsolateSection[],
  locale: Locale,
  left: number,
  width: number,
): void {
  const w = WORDS[locale];
  const columns: TableColumns<keyof SusceptibilityLine> = [
    ['antibiotic', 0.4],
    ['reading', 0.25],
    ['category', 0.35],
  ];
  const row = (cells: SusceptibilityLine, font: 'regular' | 'bold') =>
    tableRow(doc, columns, cells, font, { left, width });
  doc.moveDown(0.5).font('bold').fontSize(11).text(w.title, left, doc.y);
  for (const isolate of isolates) {
    doc.moveDown(0.3).font('bold').fontSize(9.5).text(isolate.heading, left, doc.y, { width });
    doc.font('regular').fontSize(9);
    if (isolate.colonyCount) doc.text(`${w.colonyCount}：${isolate.colonyCount}`, { width });
    if (isolate.versions.length > 0) doc.text(`${w.version}：${isolate.versions.join('、')}`, { width });
    if (isolate.lines.length === 0) continue;
    row({ antibiotic: w.antibiotic, reading: w.reading, category: w.category }, 'bold');
    for (const line of isolate.lines) row(line, 'regular');
    doc.font('regular').fontSize(7.5).text(w.legend(isolate.guidelines), left, doc.y, { width });
  }
  doc
    .moveTo(left, doc.y + 2)
    .lineTo(left + width, doc.y + 2)
    .stroke();
  doc.moveDown(0.5);
}
