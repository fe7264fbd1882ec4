import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { useState } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ConfirmDialog, Dialog, isDialogOpen } from '../../../renderer/src/components/common';

afterEach(cleanup);

function Opener({ onClose }: { onClose?: () => void }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <button type="button" onClick={() => setOpen(true)}>
        Open
      </button>
      {open && (
        <Dialog
          title="Connect a cluster"
          onClose={() => {
            onClose?.();
            setOpen(false);
          }}
          footer={<button type="button">Next</button>}
        >
          <input aria-label="URL" />
        </Dialog>
      )}
    </>
  );
}

describe('Dialog', () => {
  it('is a labelled modal dialog that takes focus and gives it back on Escape', () => {
    const closed = vi.fn();
    render(<Opener onClose={closed} />);
    const opener = screen.getByRole('button', { name: 'Open' });
    opener.focus();
    fireEvent.click(opener);
    const dialog = screen.getByRole('dialog', { name: 'Connect a cluster' });
    expect(dialog.getAttribute('aria-modal')).toBe('true');
    expect(isDialogOpen()).toBe(true);
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Close' }));
    fireEvent.keyDown(document.activeElement!, { key: 'Escape' });
    expect(closed).toHaveBeenCalledOnce();
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(document.activeElement).toBe(opener);
    expect(isDialogOpen()).toBe(false);
  });

  it('still closes on Escape, and takes Tab back, after the focused button went away (focus fell to the page)', () => {
    const closed = vi.fn();
    function Vanishing() {
      const [done, setDone] = useState(false);
      return (
        <Dialog title="Take in manifests" onClose={closed}>
          {done ? <p role="status">Creating 1 proxy</p> : <button type="button" onClick={() => setDone(true)}>Create 1 proxy</button>}
        </Dialog>
      );
    }
    render(<Vanishing />);
    const create = screen.getByRole('button', { name: 'Create 1 proxy' });
    create.focus();
    fireEvent.click(create);
    expect(screen.getByRole('status').textContent).toBe('Creating 1 proxy');
    expect(document.activeElement).toBe(document.body);
    fireEvent.keyDown(document.body, { key: 'Tab' });
    expect(screen.getByRole('dialog').contains(document.activeElement)).toBe(true);
    document.body.focus();
    (document.activeElement as HTMLElement).blur();
    fireEvent.keyDown(document.body, { key: 'Escape' });
    expect(closed).toHaveBeenCalledOnce();
  });

  it('with one dialog over another, a stray Escape closes only the top one', () => {
    const lower = vi.fn();
    const upper = vi.fn();
    render(
      <>
        <Dialog title="Lower" onClose={lower}>
          <p>under</p>
        </Dialog>
        <Dialog title="Upper" onClose={upper}>
          <p>over</p>
        </Dialog>
      </>,
    );
    (document.activeElement as HTMLElement | null)?.blur();
    fireEvent.keyDown(document.body, { key: 'Escape' });
    expect(upper).toHaveBeenCalledOnce();
    expect(lower).not.toHaveBeenCalled();
  });

  it('keeps Tab inside: from the last control to the first, and Shift+Tab back', () => {
    render(<Opener />);
    fireEvent.click(screen.getByRole('button', { name: 'Open' }));
    const first = screen.getByRole('button', { name: 'Close' });
    const last = screen.getByRole('button', { name: 'Next' });
    last.focus();
    fireEvent.keyDown(last, { key: 'Tab' });
    expect(document.activeElement).toBe(first);
    fireEvent.keyDown(first, { key: 'Tab', shiftKey: true });
    expect(document.activeElement).toBe(last);
  });

  it('adds no landmark to the page: its title bar and buttons are no banner or contentinfo (the page has its own)', () => {
    render(<Opener />);
    fireEvent.click(screen.getByRole('button', { name: 'Open' }));
    expect(screen.getByRole('button', { name: 'Next' })).toBeTruthy();
    expect(screen.queryAllByRole('contentinfo')).toEqual([]);
    expect(screen.queryAllByRole('banner')).toEqual([]);
  });
});

describe('ConfirmDialog', () => {
  it('focuses Cancel first, names the action on the confirm button, and confirms on click', () => {
    const confirm = vi.fn();
    const cancel = vi.fn();
    render(
      <ConfirmDialog title="Delete proxies" confirmLabel="Delete 2 proxies" danger onConfirm={confirm} onCancel={cancel}>
        proxy-a and proxy-b will be destroyed.
      </ConfirmDialog>,
    );
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Cancel' }));
    expect(screen.getByRole('dialog', { name: 'Delete proxies' }).textContent).toContain('proxy-a and proxy-b');
    fireEvent.click(screen.getByRole('button', { name: 'Delete 2 proxies' }));
    expect(confirm).toHaveBeenCalledOnce();
    fireEvent.keyDown(screen.getByRole('dialog'), { key: 'Escape' });
    expect(cancel).toHaveBeenCalledOnce();
  });

  it('closes only the top dialog on Escape when one is opened over another', () => {
    const outer = vi.fn();
    const inner = vi.fn();
    render(
      <Dialog title="Outer" onClose={outer}>
        <ConfirmDialog title="Inner" confirmLabel="Go" onConfirm={() => undefined} onCancel={inner}>
          sure?
        </ConfirmDialog>
      </Dialog>,
    );
    fireEvent.keyDown(screen.getByRole('button', { name: 'Cancel' }), { key: 'Escape' });
    expect(inner).toHaveBeenCalledOnce();
    expect(outer).not.toHaveBeenCalled();
  });
});
