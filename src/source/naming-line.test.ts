import { describe, expect, it } from 'vitest';
import { namingStandIn } from './naming-line.js';

const standIn = (line: string): unknown => {
  const made = namingStandIn(Buffer.from(line));
  return made === undefined ? undefined : JSON.parse(made.toString());
};

describe('namingStandIn', () => {
  it('a create-vat: its type, time, vatID and name, without its bundle', () => {
    const bundle = 'A'.repeat(100_000);
    const line = `{"type":"create-vat","vatID":"v6","dynamic":false,"description":"alice","name":"alice","vatSourceBundle":{"endoZipBase64":"${bundle}"},"time":1795308057.478575,"monotime":11.8}`;
    expect(namingStandIn(Buffer.from(line))?.toString()).toBe('{"type":"create-vat","time":1795308057.478575,"vatID":"v6","name":"alice"}');
  });

  it('a crank-start of a create-vat message: the message\'s type, vatID and dynamicOptions.name', () => {
    const line = '{"type":"crank-start","crankNum":92,"message":{"type":"create-vat","vatID":"v8","source":{"bundleID":"b1"},"dynamicOptions":{"name":"carol","vatParameters":{"big":"xxxx"}}},"time":5}';
    expect(standIn(line)).toEqual({ type: 'crank-start', time: 5, message: { type: 'create-vat', vatID: 'v8', dynamicOptions: { name: 'carol' } } });
  });

  it('other entries that hold "create-vat" keep their type and time; fields that are not there stay out', () => {
    expect(standIn('{"type":"deliver","kd":["message","ko1",{"methargs":{"body":"#[\\"create-vat\\"]"}}],"time":7}')).toEqual({ type: 'deliver', time: 7 });
    expect(standIn('{"type":"create-vat","vatID":"v9"}')).toEqual({ type: 'create-vat', vatID: 'v9' });
    expect(standIn('{"type":"crank-start","message":"create-vat","time":1}')).toEqual({ type: 'crank-start', time: 1 });
  });

  it('reads as JSON.parse reads: the last of duplicate keys, values of any kind as they are', () => {
    expect(standIn('{"type":"create-vat","vatID":"v1","name":"a","name":"b","time":1}')).toEqual({ type: 'create-vat', vatID: 'v1', name: 'b', time: 1 });
    expect(standIn('{"type":"create-vat","vatID":["v1"],"name":{"n":null}}')).toEqual({ type: 'create-vat', vatID: ['v1'], name: { n: null } });
  });

  it('none for a line that is not a slog entry, or whose values would not read back (a number too big for a double)', () => {
    for (const line of ['{"type":"create-vat"', '["create-vat"]', '{"vatID":"v1"}', '{"type":7}', '', '{"type":"create-vat","time":1e400}', '{"type":"create-vat","name":[1e999]}']) {
      expect(namingStandIn(Buffer.from(line)), line).toBeUndefined();
    }
  });
});
