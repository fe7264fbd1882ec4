/**
 * What the task list says a running task is doing: every step running now,
 * since a create's seed goes up beside its clone (issue 11).
 */
import { describe, expect, it } from 'vitest';
import { currentStep } from '../../../renderer/src/views/tasks/words';
import { task } from '../proxies/data';

describe('the current step', () => {
  it('names the one running step', () => {
    expect(currentStep(task('a'))).toBe('Clone the template');
  });

  it('names both while the seed goes up beside the clone', () => {
    const t = task('b', {
      steps: [
        { name: 'clone', state: 'running' },
        { name: 'upload-seed', state: 'running' },
        { name: 'configure', state: 'pending' },
      ],
    });
    expect(currentStep(t)).toBe('clone + upload-seed');
  });
});
