import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { useState } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { CopyButton, Field, SearchInput, Toolbar } from '../../../renderer/src/components/common';

afterEach(cleanup);

function Search() {
  const [q, setQ] = useState('');
  return (
    <Toolbar label="Proxy filters">
      <input aria-label="Other" />
      <SearchInput label="Search proxies" value={q} onChange={setQ} />
    </Toolbar>
  );
}

describe('SearchInput', () => {
  it('takes focus on Ctrl+F and on "/", and Escape clears it', () => {
    render(<Search />);
    const box = screen.getByRole('searchbox', { name: 'Search proxies' }) as HTMLInputElement;
    expect(screen.getByRole('toolbar', { name: 'Proxy filters' })).toBeTruthy();
    fireEvent.keyDown(window, { key: 'f', ctrlKey: true });
    expect(document.activeElement).toBe(box);
    fireEvent.change(box, { target: { value: '10.0.0' } });
    fireEvent.keyDown(box, { key: 'Escape' });
    expect(box.value).toBe('');
    box.blur();
    fireEvent.keyDown(document.body, { key: '/' });
    expect(document.activeElement).toBe(box);
  });

  it('leaves "/" alone while another field is being typed in', () => {
    render(<Search />);
    const other = screen.getByRole('textbox', { name: 'Other' });
    other.focus();
    fireEvent.keyDown(other, { key: '/' });
    expect(document.activeElement).toBe(other);
  });
});

describe('CopyButton', () => {
  it('copies and says so, or says the clipboard refused', async () => {
    const writeText = vi.fn().mockResolvedValueOnce(undefined).mockRejectedValueOnce(new Error('denied'));
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    render(<CopyButton text="pveum acl modify / --roles X" label="Copy the commands" />);
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Copy the commands' })));
    expect(writeText).toHaveBeenCalledWith('pveum acl modify / --roles X');
    expect(screen.getByRole('status').textContent).toBe('Copied');
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Copy the commands' })));
    expect(screen.getByRole('status').textContent).toContain('clipboard refused');
  });
});

describe('Field', () => {
  it('labels its control and reads its problem with it', () => {
    render(
      <Field label="Cluster URL" problem="must start with https://">
        <input />
      </Field>,
    );
    const input = screen.getByRole('textbox', { name: 'Cluster URL' });
    expect(input.getAttribute('aria-invalid')).toBe('true');
    const problemId = input.getAttribute('aria-describedby')!;
    expect(document.getElementById(problemId)?.textContent).toBe('must start with https://');
  });
});
