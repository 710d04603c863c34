import type { ReactNode } from 'react';
import { App } from 'antd';
import { screen, waitFor, within } from '@testing-library/react';
import { FeedbackBridge } from '../feedback/FeedbackBridge';

/**
 * For tests of hooks that talk to the user: antd's App with the feedback bridge around them (the
 * wrapper of renderHook), so `notify` and `feedback.modal` show the real messages and boxes.
 */
export function WithFeedback({ children }: { children: ReactNode }) {
  return (
    <App>
      <FeedbackBridge />
      {children}
    </App>
  );
}

/** The texts of the messages showing now. */
export function messages(): string[] {
  return [...document.querySelectorAll('.ant-message-notice')].map((n) => n.textContent ?? '');
}

/** Waits until a message with this text shows. */
export function shown(text: string): Promise<void> {
  return waitFor(() => {
    if (!messages().includes(text)) throw new Error(`no message "${text}" among ${JSON.stringify(messages())}`);
  });
}

/** The dialog box that says this, the newest when there are more (a closed one may still be fading out). */
export async function box(text: string): Promise<HTMLElement> {
  const dialogs = await screen.findAllByRole('dialog');
  const found = dialogs.findLast((d) => d.textContent?.includes(text));
  if (!found) throw new Error(`no dialog saying "${text}"`);
  return found;
}

/** Presses a button of a box by its label (antd spaces two-character Chinese labels: 确 定). */
export function press(dialog: HTMLElement, label: string): void {
  const spaced = new RegExp(`^${[...label].join('\\s*')}$`);
  within(dialog).getByRole('button', { name: spaced }).click();
}
