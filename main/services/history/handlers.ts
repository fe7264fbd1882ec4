/** Handlers for the `history.*` channels: the database's file, size and state for Settings. */
import type { historyChannels } from '../../../shared/channels/history';
import type { AreaHandlers } from '../../ipc/router';
import type { HistoryDatabase } from './history-db';

export function historyHandlers(history: Pick<HistoryDatabase, 'status' | 'retentionDays'>): AreaHandlers<typeof historyChannels> {
  return {
    'history.status': () => ({ ...history.status(), retentionDays: history.retentionDays }),
  };
}
