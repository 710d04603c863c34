// bpmn-js-properties-panel ships no type declarations; the designer uses its two modules as bpmn-js modules.
declare module 'bpmn-js-properties-panel' {
  export const BpmnPropertiesPanelModule: import('didi').ModuleDeclaration;
  export const BpmnPropertiesProviderModule: import('didi').ModuleDeclaration;
}

// bpmnlint is CommonJS without declarations for its entry and rule modules.
declare module 'bpmnlint' {
  export interface LintReport {
    id?: string;
    message: string;
  }
  export class Linter {
    constructor(options: {
      config: { rules: Record<string, string> };
      resolver: {
        resolveRule(pkg: string, name: string): unknown;
        resolveConfig(pkg: string, name: string): unknown;
      };
    });
    lint(definitions: unknown): Promise<Record<string, LintReport[]>>;
  }
}
declare module 'bpmnlint/rules/*' {
  const rule: () => { check(node: unknown, reporter: { report(id: string, message: string): void }): void };
  export default rule;
}

// bpmn-auto-layout ships no declarations: one function, XML in, XML with a generated diagram out.
declare module 'bpmn-auto-layout' {
  export function layoutProcess(xml: string): Promise<string>;
}
