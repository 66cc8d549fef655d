/**
 * OTLP/HTTP JSON attribute values, decoded once for the test receiver
 * (`_otlp_receiver.ts`).
 *
 * @module
 */

/** An OTLP `AnyValue` as JSON. */
export interface AnyValue {
  /** A string. */
  stringValue?: string;
  /** An int64, as a string or number. */
  intValue?: string | number;
  /** A double. */
  doubleValue?: number;
  /** A boolean. */
  boolValue?: boolean;
  /** A list. */
  arrayValue?: { values?: AnyValue[] };
  /** A nested map. */
  kvlistValue?: { values?: KeyValue[] };
}

/** An OTLP attribute. */
export interface KeyValue {
  /** The attribute's name. */
  key: string;
  /** Its value. */
  value?: AnyValue;
}

/** The plain value of an `AnyValue`. */
export function unwrap(value: AnyValue | undefined): unknown {
  if (value === undefined) return undefined;
  if (value.stringValue !== undefined) return value.stringValue;
  if (value.intValue !== undefined) return Number(value.intValue);
  if (value.doubleValue !== undefined) return value.doubleValue;
  if (value.boolValue !== undefined) return value.boolValue;
  if (value.arrayValue !== undefined) return (value.arrayValue.values ?? []).map(unwrap);
  if (value.kvlistValue !== undefined) return flatten(value.kvlistValue.values);
  return undefined;
}

/** Attributes as a plain object. */
export function flatten(values: KeyValue[] | undefined): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const kv of values ?? []) out[kv.key] = unwrap(kv.value);
  return out;
}
