import { useEffect, useMemo, useState } from 'react';
import { Tree } from 'antd';
import type { WidgetProps } from '@rjsf/utils';
import { getResult } from '../../api/http';
import type { ScreenRecord } from '../dataProvider';

interface Node {
  key: number;
  title: string;
  children: Node[];
}

/** The records of a tree resource as nested nodes (parentField links a node to its parent). */
function buildTree(records: ScreenRecord[], labelField: string, parentField: string): Node[] {
  const nodes = new Map<number, Node>(
    records.map((r) => [r.id, { key: r.id, title: String(r[labelField] ?? r.id), children: [] }]),
  );
  const roots: Node[] = [];
  for (const r of records) {
    const parent = nodes.get(Number(r[parentField]));
    (parent ? parent.children : roots).push(nodes.get(r.id)!);
  }
  return roots;
}

function leafKeys(nodes: Node[]): Set<number> {
  const out = new Set<number>();
  const walk = (list: Node[]) => list.forEach((n) => (n.children.length === 0 ? out.add(n.key) : walk(n.children)));
  walk(nodes);
  return out;
}

/**
 * A multiple tree field as a tree of checkboxes (the menus a role opens, the menus switched off for a
 * user): the value is the ticked nodes, a section only when all of it is ticked. A half-ticked section
 * is not in it: switching one page off for a user must not switch off its whole section (spec 6); the
 * sections a role's pages need are added by the server (role assign keeps each page's ancestors).
 */
export function TreeCheckWidget({ id, value, disabled, readonly, onChange, options }: WidgetProps) {
  const [tree, setTree] = useState<Node[]>([]);
  const resource = String(options.resource);
  const labelField = String(options.labelField ?? 'name');
  const parentField = String(options.parentField ?? 'parentId');
  useEffect(() => {
    getResult<{ records: ScreenRecord[] }>(`/api/resources/${resource}`, { page: 1, size: 1000 }).then(
      (page) => setTree(buildTree(page.records, labelField, parentField)),
      () => undefined,
    );
  }, [resource, labelField, parentField]);
  const leaves = useMemo(() => leafKeys(tree), [tree]);
  // Only leaves are given as ticked: the tree works out which sections are fully or half ticked.
  const checked = ((value as number[] | undefined) ?? []).filter((k) => leaves.has(k));
  return (
    <div
      id={id}
      className="tree-check-widget"
      style={{ maxHeight: 360, overflow: 'auto', border: '1px solid #d9d9d9', borderRadius: 6, padding: 4 }}
    >
      <Tree
        checkable
        selectable={false}
        disabled={disabled || readonly}
        defaultExpandAll
        key={tree.length}
        treeData={tree}
        checkedKeys={checked}
        onCheck={(keys) => {
          const ticked = (Array.isArray(keys) ? keys : keys.checked).map(Number);
          onChange([...new Set(ticked)].sort((a, b) => a - b));
        }}
      />
    </div>
  );
}
