import { Typography } from 'antd';
import { feedback } from '../feedback/feedback';

/**
 * The values a command answered that the user must see (action.result: the numbers 取号 issued), in a
 * box that stays until closed: a 1 s message would be gone before a number is copied onto a form.
 */
export function showCommandResult(title: string, values: { label: string; value: string }[], close: string): void {
  feedback.modal.success({
    title,
    className: 'command-result',
    okText: close,
    content: (
      <dl className="command-result-values">
        {values.map((v, i) => (
          <div key={i} className="command-result-value">
            <dt>{v.label}</dt>
            <dd>
              <Typography.Text strong copyable>
                {v.value}
              </Typography.Text>
            </dd>
          </div>
        ))}
      </dl>
    ),
  });
}
