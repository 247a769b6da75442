import { fromProtoEvent, toProtoEvent } from './cloudevent-grpc.codec.js';

describe('CloudEvent protobuf codec (OCM grpc protocol)', () => {
  it('encodes attributes as ce-prefixed typed values and JSON data as binary_data, and decodes them back', () => {
    const at = new Date('2026-03-25T10:00:00.250Z');
    const proto = toProtoEvent({
      id: 'e1',
      source: 'src',
      type: 't',
      attributes: { clustername: 'c1', resourceversion: 3, flag: true, time: at },
      data: { manifests: [1] },
    });
    expect(proto).toMatchObject({
      spec_version: '1.0',
      attributes: {
        'ce-clustername': { ce_string: 'c1' },
        'ce-resourceversion': { ce_integer: 3 },
        'ce-flag': { ce_boolean: true },
        'ce-time': { ce_timestamp: { seconds: 1774432800, nanos: 250_000_000 } },
      },
    });
    expect(JSON.parse(proto.binary_data!.toString('utf8'))).toEqual({ manifests: [1] });
    expect(fromProtoEvent(proto)).toEqual({
      id: 'e1',
      source: 'src',
      type: 't',
      attributes: { clustername: 'c1', resourceversion: 3, flag: true, time: at.toISOString() },
      data: { manifests: [1] },
    });
  });

  it('accepts unprefixed keys, the contenttype alias, text_data and no data', () => {
    const decoded = fromProtoEvent({
      id: 'e',
      source: 's',
      spec_version: '1.0',
      type: 't',
      attributes: { contenttype: { ce_string: 'application/json' }, x: { ce_uri: 'https://a' } },
      text_data: '{"a":1}',
    });
    expect(decoded).toEqual({
      id: 'e',
      source: 's',
      type: 't',
      attributes: { datacontenttype: 'application/json', x: 'https://a' },
      data: { a: 1 },
    });
    expect(fromProtoEvent({ id: 'e', source: 's', spec_version: '1.0', type: 't' })).not.toHaveProperty('data');
    expect(() => fromProtoEvent({ id: 'e', source: 's', spec_version: '1.0', type: 't', binary_data: Buffer.from('{nope') })).toThrow(
      SyntaxError,
    );
  });
});
