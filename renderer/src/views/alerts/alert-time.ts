/**
 * The one place the alerts' words take a time from: the app's local format
 * (renderer/src/format). The Alerts view, its tuning lists and the notices
 * all call this, so a change of the app's format is one line here.
 */
import { formatDateTime } from '../../format';

export const alertTime = (iso: string | undefined): string => formatDateTime(iso);
