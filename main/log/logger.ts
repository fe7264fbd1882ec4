/**
 * Structured logging for main: one JSON object per line. Every line is
 * passed through the secret redactor before it reaches a sink.
 */
import { redactSecrets } from './secrets';

export type LogLevel = 'debug' | 'info' | 'warn' | 'error';
export type LogFields = Record<string, unknown>;
export type LogSink = (line: string) => void;

const levelOrder: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40 };

export interface Logger {
  debug(msg: string, fields?: LogFields): void;
  info(msg: string, fields?: LogFields): void;
  warn(msg: string, fields?: LogFields): void;
  error(msg: string, fields?: LogFields): void;
  child(fields: LogFields): Logger;
}

export interface LoggerOptions {
  level?: LogLevel;
  sinks?: LogSink[];
  fields?: LogFields;
}

function serialise(value: unknown): unknown {
  if (value instanceof Error) return { name: value.name, message: value.message };
  return value;
}

export function createLogger(options: LoggerOptions = {}): Logger {
  const min = levelOrder[options.level ?? 'info'];
  const sinks = options.sinks ?? [(line) => process.stderr.write(line + '\n')];
  const base = options.fields ?? {};
  const write = (level: LogLevel, msg: string, fields?: LogFields) => {
    if (levelOrder[level] < min) return;
    const record: LogFields = { t: new Date().toISOString(), level, msg, ...base };
    for (const [k, v] of Object.entries(fields ?? {})) record[k] = serialise(v);
    const line = redactSecrets(JSON.stringify(record));
    for (const sink of sinks) sink(line);
  };
  return {
    debug: (m, f) => write('debug', m, f),
    info: (m, f) => write('info', m, f),
    warn: (m, f) => write('warn', m, f),
    error: (m, f) => write('error', m, f),
    child: (fields) => createLogger({ ...options, fields: { ...base, ...fields } }),
  };
}

/** A logger that remembers its lines: for tests that assert what was (not) logged. */
export function createMemoryLogger(level: LogLevel = 'debug'): Logger & { lines: string[] } {
  const lines: string[] = [];
  return Object.assign(createLogger({ level, sinks: [(l) => lines.push(l)] }), { lines });
}
