import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

/**
 * The import rules of eslint.config.js hold the layers apart: a kernel file importing a capability, a
 * capability importing another's internals, or shared code importing the server is an error; the
 * kernel and a capability importing the kernel are not. Linted as if the text stood at the given path.
 */
const eslint = new ESLint({ cwd: process.cwd() });

async function problemsOf(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath });
  return (result?.messages ?? []).filter((m) => m.ruleId === 'import-x/no-restricted-paths').map((m) => m.message);
}

describe('import direction', { timeout: 60_000 }, () => {
  it('refuses a kernel file that imports a capability', async () => {
    const problems = await problemsOf(
      'src/server/kernel/resources/probe.ts',
      "import { handover } from '../../handover/capability.js';\nexport const probe = handover;\n",
    );
    expect(problems).toEqual([expect.stringContaining('The kernel imports no capability')]);
  });

  it("refuses a capability that imports another capability's internals", async () => {
    const problems = await problemsOf(
      'src/server/qc/probe.ts',
      "import { handoverRules } from '../handover/rules.js';\nexport const probe = handoverRules;\n",
    );
    expect(problems).toEqual([expect.stringContaining('only through the kernel')]);
  });

  it('refuses shared code that imports the server', async () => {
    const problems = await problemsOf(
      'src/shared/screens/probe.ts',
      "import { CAPABILITIES } from '../../server/capabilities.js';\nexport const probe = CAPABILITIES;\n",
    );
    expect(problems).toEqual([expect.stringContaining('Shared code is below both sides')]);
  });

  it("refuses a browser module that imports the app's composition root", async () => {
    const problems = await problemsOf(
      'src/web/shell/probe.ts',
      "import { router } from '../app/routes';\nexport const probe = router;\n",
    );
    expect(problems).toEqual([expect.stringContaining('nothing imports it')]);
  });

  it('lets a capability import the kernel and itself', async () => {
    const problems = await problemsOf(
      'src/server/qc/probe.ts',
      "import { ok } from '../kernel/http/envelope.js';\nimport { evaluate } from './westgard.js';\nexport const probe = [ok, evaluate];\n",
    );
    expect(problems).toEqual([]);
  });
});

describe('designer tests (issue 21)', { timeout: 60_000 }, () => {
  const pixelRule = async (filePath: string, code: string) => {
    const [result] = await eslint.lintText(code, { filePath });
    return (result?.messages ?? []).filter((m) => m.ruleId === 'no-restricted-syntax').map((m) => m.message);
  };
  const click =
    'export async function probe(page: { mouse: { click(x: number, y: number): Promise<void> } }) {\n  await page.mouse.click(10, 20);\n}\n';

  it('refuses an element selected by a point of the screen', async () => {
    expect(await pixelRule('tests/e2e/workflow-designer.test.ts', click)).toEqual([
      expect.stringContaining('by its id'),
    ]);
    expect(await pixelRule('tests/support/workflow.ts', click)).toHaveLength(1);
  });

  it('leaves other tests their clicks at a point', async () => {
    expect(await pixelRule('tests/e2e/shell-devices.test.ts', click)).toEqual([]);
  });
});
