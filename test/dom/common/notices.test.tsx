import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  ErrorNotice,
  HealthDot,
  ProgressBar,
  StateBadge,
  UsageMeter,
  usageLevel,
  EmptyState,
} from '../../../renderer/src/components/common';

afterEach(cleanup);

describe('ErrorNotice', () => {
  it('announces a new error with its class, its plain message and the hint', () => {
    render(
      <ErrorNotice
        title="Saving failed"
        error={{ kind: 'permanent', message: 'The token may not allocate the seed storage.', hint: 'Grant Datastore.Allocate.' }}
      />,
    );
    const alert = screen.getByRole('alert');
    expect(alert.textContent).toContain('Permanent');
    expect(alert.textContent).toContain('Saving failed');
    expect(alert.textContent).toContain('The token may not allocate the seed storage.');
    expect(alert.textContent).toContain('What to do: Grant Datastore.Allocate.');
  });

  it('names each class in words, and the offending field of an invalid input', () => {
    const { rerender } = render(<ErrorNotice error={{ kind: 'not-found', message: 'gone', hint: 'h' }} />);
    expect(screen.getByRole('alert').textContent).toContain('Not found');
    rerender(<ErrorNotice error={{ kind: 'invalid-input', message: 'bad', hint: 'h', field: 'profile.url' }} />);
    expect(screen.getByRole('alert').textContent).toContain('Invalid input');
    expect(screen.getByRole('alert').textContent).toContain('field: profile.url');
    rerender(<ErrorNotice error={{ kind: 'transient', message: 'later', hint: 'h' }} announce={false} />);
    expect(screen.queryByRole('alert')).toBeNull();
    expect(screen.getByRole('status').textContent).toContain('Transient');
  });

  it('offers retry and dismiss when given', () => {
    const retry = vi.fn();
    const dismiss = vi.fn();
    render(<ErrorNotice error={{ kind: 'transient', message: 'm', hint: 'h' }} onRetry={retry} onDismiss={dismiss} />);
    fireEvent.click(screen.getByRole('button', { name: 'Try again' }));
    fireEvent.click(screen.getByRole('button', { name: 'Dismiss' }));
    expect(retry).toHaveBeenCalledOnce();
    expect(dismiss).toHaveBeenCalledOnce();
  });
});

describe('badges, dots, bars', () => {
  it('colours a state by its tone and always writes the word', () => {
    render(
      <>
        <StateBadge state="running" />
        <StateBadge state="unknown" />
        <StateBadge state="whatever" label="Custom" />
      </>,
    );
    expect(screen.getByText('running').className).toContain('tone-ok');
    expect(screen.getByText('unknown').className).toContain('tone-bad');
    expect(screen.getByText('Custom').className).toContain('tone-neutral');
  });

  it('gives a health dot its meaning as an accessible name', () => {
    render(<HealthDot level="bad" label="pv1-3: Unreachable" />);
    expect(screen.getByRole('img', { name: 'pv1-3: Unreachable' }).className).toContain('health-bad');
  });

  it('reads usage on one scale: calm, warning at 75 %, alarming at 90 %', () => {
    expect([0.5, 0.8, 0.95, undefined].map(usageLevel)).toEqual(['ok', 'warn', 'bad', 'unknown']);
    render(<UsageMeter label="Memory" fraction={0.8} text="6.4 GiB of 8 GiB" />);
    const meter = screen.getByRole('meter', { name: 'Memory' });
    expect(meter.getAttribute('aria-valuenow')).toBe('80');
    expect(meter.className).toContain('health-warn');
  });

  it('reports progress as a number, or none while the length is unknown', () => {
    const { rerender } = render(<ProgressBar label="Create proxy-a" value={42.6} detail="Cloning" />);
    const bar = screen.getByRole('progressbar', { name: 'Create proxy-a' });
    expect(bar.getAttribute('aria-valuenow')).toBe('43');
    expect(bar.getAttribute('aria-valuetext')).toBe('Cloning');
    rerender(<ProgressBar label="Create proxy-a" value={140} />);
    expect(screen.getByRole('progressbar').getAttribute('aria-valuenow')).toBe('100');
    rerender(<ProgressBar label="Create proxy-a" />);
    expect(screen.getByRole('progressbar').hasAttribute('aria-valuenow')).toBe(false);
  });

  it('says why a list is empty and offers the way forward', () => {
    render(
      <EmptyState title="No templates" action={<button type="button">Add a template</button>}>
        None configured yet.
      </EmptyState>,
    );
    expect(screen.getByRole('status').textContent).toContain('No templates');
    expect(screen.getByRole('button', { name: 'Add a template' })).toBeTruthy();
  });
});
