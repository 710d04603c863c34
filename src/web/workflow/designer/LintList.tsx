import { useEffect, useState } from 'react';
import { Alert, List, Typography } from 'antd';
import type { DiagramElement, Services } from './bpmnTypes';
import { lintDiagram, type LintIssue } from './lint';
import { wt } from '../i18n';

/** The live check results under the properties (issue 4); a click selects the element concerned. */
export function LintList({
  services,
  definitions,
  exempt,
}: {
  services: Services;
  definitions: () => unknown;
  /** Elements imported from another tool: the lab's rules are not asked of them. */
  exempt: ReadonlySet<string>;
}) {
  const [issues, setIssues] = useState<LintIssue[]>();
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    let live = true;
    const run = () => {
      clearTimeout(timer);
      timer = setTimeout(() => {
        lintDiagram(definitions(), exempt)
          .then((found) => live && setIssues(found))
          .catch((e: unknown) => console.error('bpmnlint', e));
      }, 300);
    };
    run();
    services.on('commandStack.changed', run);
    services.on('import.done', run);
    return () => {
      live = false;
      clearTimeout(timer);
      services.off('commandStack.changed', run);
      services.off('import.done', run);
    };
  }, [services, definitions, exempt]);

  const select = (id: string) => {
    const element = services.get<{ get(id: string): DiagramElement | undefined }>('elementRegistry').get(id);
    if (element) services.get<{ select(e: DiagramElement): void }>('selection').select(element);
  };
  if (!issues) return null;
  if (issues.length === 0) return <Alert type="success" showIcon title={wt('流程校验通过')} data-testid="lint-ok" />;
  return (
    <List
      size="small"
      header={
        <Typography.Text type="warning">
          {wt('流程校验问题')}（{issues.length}）
        </Typography.Text>
      }
      dataSource={issues}
      data-testid="lint-issues"
      renderItem={(issue) => (
        <List.Item style={{ cursor: 'pointer' }} onClick={() => select(issue.id)}>
          <Typography.Text type="secondary">{issue.id}</Typography.Text>：{issue.message}
        </List.Item>
      )}
    />
  );
}
