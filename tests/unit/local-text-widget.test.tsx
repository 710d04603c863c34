import { afterEach, describe, expect, it } from 'vitest';
import { useState } from 'react';
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import type { WidgetProps } from '@rjsf/utils';
import { LocalTextWidget } from '../../src/web/screens/widgets/LocalTextWidget';

afterEach(cleanup);

/** The form around the widget, as rjsf holds it: the value it was handed last, and a way to set its own. */
const form: { values: unknown[]; set?: (v: string | undefined) => void } = { values: [] };

function Harness({ initial }: { initial?: string }) {
  const [value, setValue] = useState<string | undefined>(initial);
  form.set = setValue;
  const props = {
    id: 'root_title',
    value,
    options: {},
    onChange: (v: string | undefined) => {
      form.values.push(v);
      setValue(v);
    },
    onBlur: () => undefined,
    onFocus: () => undefined,
  } as unknown as WidgetProps;
  return <LocalTextWidget {...props} />;
}

describe('a text field that keeps typing to itself', () => {
  it('hands the text to the form after a pause, and keeps the same focused input when the form takes it back', async () => {
    form.values = [];
    render(<Harness />);
    const input = screen.getByRole('textbox') as HTMLInputElement;
    input.focus();
    fireEvent.change(input, { target: { value: 'HE 染色' } });
    expect(form.values).toEqual([]);
    await waitFor(() => expect(form.values).toEqual(['HE 染色']));
    // The form's echo of the typed text does not rebuild the input: the user goes on typing in it.
    expect(screen.getByRole('textbox')).toBe(input);
    expect(document.activeElement).toBe(input);
    fireEvent.change(input, { target: { value: 'HE 染色 合格' } });
    fireEvent.blur(input);
    expect(form.values).toEqual(['HE 染色', 'HE 染色 合格']);
    expect(input.value).toBe('HE 染色 合格');
  });

  it('shows a value the form sets itself (reset, another record), and an emptied field reaches the form as no value', async () => {
    form.values = [];
    render(<Harness initial="旧值" />);
    expect((screen.getByRole('textbox') as HTMLInputElement).value).toBe('旧值');
    act(() => form.set!('新记录'));
    expect((screen.getByRole('textbox') as HTMLInputElement).value).toBe('新记录');
    const input = screen.getByRole('textbox') as HTMLInputElement;
    fireEvent.change(input, { target: { value: '' } });
    fireEvent.blur(input);
    expect(form.values).toEqual([undefined]);
    expect((screen.getByRole('textbox') as HTMLInputElement).value).toBe('');
  });
});
