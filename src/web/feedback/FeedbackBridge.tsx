import { App } from 'antd';
import { feedback } from './feedback';

/** Hands App.useApp()'s context-aware message / modal / notification to `feedback`. */
export function FeedbackBridge() {
  const { message, modal, notification } = App.useApp();
  // Written during render on purpose: code outside React (HTTP interceptors) needs them before any effect runs.
  /* eslint-disable react-hooks/immutability */
  feedback.message = message;
  feedback.modal = modal;
  feedback.notification = notification;
  /* eslint-enable react-hooks/immutability */
  return null;
}
