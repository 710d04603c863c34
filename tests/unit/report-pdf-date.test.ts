// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { reportPdf, type ReportContent } from '../../src/server/reports/pdf';
import { pdfText } from '../support/pdfText';

/**
 * A report's PDF is drawn after its signature is committed (kernel/files), at the latest when a process
 * that stopped first starts again: the document's own date (what a viewer shows as created) is the
 * issue's, not the drawing's.
 */
const content: ReportContent = {
  lab: '第一检验中心',
  title: '检验报告单',
  reportNo: 'R20260102-0001',
  version: 1,
  corrected: false,
  paperSize: 'A4',
  landscape: false,
  patient: {
    name: '王芳',
    sexAge: '女/35',
    barcode: 'B000000001',
    hospital: '市第一医院',
    department: '内科',
    specimenType: '全血',
    collectedAt: '2026-01-02 08:00',
    receivedAt: '2026-01-02 09:00',
  },
  lines: [{ item: '白细胞计数', result: '12.3', flag: 'H', unit: '10^9/L', range: '3.5-9.5' }],
  signers: { testers: '张三', reviewers: '李四', auditors: '王五' },
  reportedAt: '2026-01-02 11:04',
};
/** The document information's CreationDate (pdfkit writes it as an object of its own). */
function creationDate(pdf: Buffer): string | undefined {
  const source = pdf.toString('latin1');
  const ref = /\/CreationDate (\d+) 0 R/.exec(source)?.[1];
  return new RegExp(`\\b${ref} 0 obj\\s*\\(D:(\\d{14})Z\\)`).exec(source)?.[1];
}

describe("a report's PDF", () => {
  it('is dated when the report was issued, whenever it is drawn', async () => {
    const pdf = await reportPdf(content, 'zh-CN', new Date('2026-01-02T03:04:05Z'));
    expect(creationDate(pdf)).toBe('20260102030405');
    expect(pdfText(pdf)).toContain('R20260102-0001');
  });
});
