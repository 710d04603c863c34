import { useCallback, useId, useState } from 'react';
import type { FieldError } from '../../../shared/screens/validate';
import { errorMessage, fieldErrors } from '../../api/http';
import { notify } from '../../feedback/feedback';

/**
 * A dialog and the write it submits (a record's save, a page's own dialogs): `dialog` says which is
 * open. While the write runs `saving` holds (its buttons wait); success shows its words, closes the
 * dialog and calls `onSaved` (reload); a failure says why and leaves the dialog open, with the
 * server's field errors beside their fields. The tries of one dialog are one message: a success
 * takes the place of an earlier try's error.
 */
export function useSave<D>(onSaved: () => void) {
  const [dialog, setDialog] = useState<D>();
  const [saving, setSaving] = useState(false);
  const [errors, setErrors] = useState<FieldError[]>([]);
  const messageKey = `save:${useId()}`;

  const close = useCallback(() => {
    setDialog(undefined);
    setErrors([]);
  }, []);

  /**
   * Runs the write; it answers the success text (the server's message, or the page's word). A far-reaching
   * write names its lasting note's title: its outcome stays on screen until closed.
   */
  const save = async (write: () => Promise<string>, failure: string, lasting?: string): Promise<void> => {
    setSaving(true);
    try {
      const text = await write();
      if (lasting) {
        notify.dismiss(messageKey);
        notify.lasting(lasting, text);
      } else notify.success(text, messageKey);
      close();
      onSaved();
    } catch (e) {
      setErrors(fieldErrors(e));
      notify.error(errorMessage(e, failure), undefined, messageKey);
    } finally {
      setSaving(false);
    }
  };

  // Through a function: a dialog state that is itself a function must not be called as an updater.
  const open = useCallback((next: D) => setDialog(() => next), []);
  return { dialog, open, close, saving, errors, save };
}
