import { useState } from 'react';
import { Button, List, Modal, Space } from 'antd';
import { wt } from '../i18n';

/** Spec 2.4: the order of a gateway's outgoing flows, 500 px; save writes it, cancel discards it. */
export function FlowOrderDialog(props: {
  flows: { id: string; name: string }[];
  order: string[];
  readOnly: boolean;
  onSave: (ids: string[]) => void;
  onCancel: () => void;
}) {
  const known = props.order.filter((id) => props.flows.some((f) => f.id === id));
  const [ids, setIds] = useState([...known, ...props.flows.map((f) => f.id).filter((id) => !known.includes(id))]);
  const move = (i: number, by: number) => {
    const next = [...ids];
    const [item] = next.splice(i, 1);
    next.splice(i + by, 0, item!);
    setIds(next);
  };
  const nameOf = (id: string) => props.flows.find((f) => f.id === id)?.name ?? id;
  return (
    <Modal
      open
      width={500}
      title={wt('连线排序设置')}
      onCancel={props.onCancel}
      onOk={() => props.onSave(ids)}
      okButtonProps={{ disabled: props.readOnly }}
      okText={wt('保存')}
      cancelText={wt('取消')}
    >
      <List
        size="small"
        bordered
        dataSource={ids}
        renderItem={(id, i) => (
          <List.Item data-testid="flow-order-item">
            <span>{nameOf(id)}</span>
            <Space>
              <Button size="small" disabled={props.readOnly || i === 0} onClick={() => move(i, -1)}>
                {wt('上移')}
              </Button>
              <Button size="small" disabled={props.readOnly || i === ids.length - 1} onClick={() => move(i, 1)}>
                {wt('下移')}
              </Button>
            </Space>
          </List.Item>
        )}
      />
    </Modal>
  );
}
