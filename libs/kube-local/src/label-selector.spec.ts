import { parseFieldSelector, matchesFields } from './field-selector.js';
import { matchesLabels, parseLabelSelector, SelectorSyntaxError } from './label-selector.js';

const labels = { app: 'web', tier: 'front', 'hyperfleet.io/generation': '3' };

describe('label selectors (apimachinery labels.Parse semantics)', () => {
  it.each([
    ['', true],
    ['app=web', true],
    ['app==web', true],
    ['app=db', false],
    ['app!=db', true],
    ['app!=web', false],
    ['missing!=x', true],
    ['app in (web,db)', true],
    ['app in (db)', false],
    ['app notin (db, cache)', true],
    ['app notin (web)', false],
    ['missing notin (web)', true],
    ['app', true],
    ['missing', false],
    ['!missing', true],
    ['!app', false],
    ['app=web,tier=front', true],
    ['app=web,tier=back', false],
    ['hyperfleet.io/generation>2', true],
    ['hyperfleet.io/generation<3', false],
    [' app = web , !missing ', true],
  ])('%j matches %j', (selector, expected) => {
    expect(matchesLabels(parseLabelSelector(selector), labels)).toBe(expected);
  });

  it('treats an object without labels as having none', () => {
    expect(matchesLabels(parseLabelSelector('!app'), undefined)).toBe(true);
    expect(matchesLabels(parseLabelSelector('app'), undefined)).toBe(false);
  });

  it('accepts an empty value: `app=` selects the empty-string label', () => {
    expect(parseLabelSelector('app=')).toEqual([{ key: 'app', operator: '=', values: [''] }]);
    expect(matchesLabels(parseLabelSelector('app='), { app: '' })).toBe(true);
  });

  it.each(['app in ()', 'app in (a', 'app=web,', '=web', 'app ~ web', 'app>x', 'app in a', 'Bad Key=1', 'app=-bad-'])(
    'rejects %j',
    (selector) => {
      expect(() => parseLabelSelector(selector)).toThrow(SelectorSyntaxError);
    },
  );
});

describe('field selectors (metadata.name, metadata.namespace)', () => {
  it.each([
    ['metadata.name=a', 'a', 'ns', true],
    ['metadata.name==a', 'b', 'ns', false],
    ['metadata.name!=a', 'b', 'ns', true],
    ['metadata.namespace=ns,metadata.name=a', 'a', 'ns', true],
    ['metadata.namespace=other', 'a', 'ns', false],
  ])('%j on %s/%s → %s', (selector, name, namespace, expected) => {
    expect(matchesFields(parseFieldSelector(selector), { metadata: { name, namespace } })).toBe(expected);
  });

  it('rejects fields other than metadata.name and metadata.namespace', () => {
    expect(() => parseFieldSelector('spec.nodeName=x')).toThrow('field label not supported: spec.nodeName');
  });

  it('takes the fields a kind makes selectable, compared as printed values', () => {
    const pod = { metadata: { name: 'p', namespace: 'ns' }, status: { phase: 'Running' } };
    expect(matchesFields(parseFieldSelector('status.phase=Running', ['status.phase']), pod)).toBe(true);
    expect(matchesFields(parseFieldSelector('status.phase!=Running', ['status.phase']), pod)).toBe(false);
    const job = { metadata: { name: 'j' }, status: { successful: 1 } };
    expect(matchesFields(parseFieldSelector('status.successful=1', ['status.successful']), job)).toBe(true);
    const event = { metadata: { name: 'e' }, source: { component: 'garbage-collector-controller' } };
    expect(matchesFields(parseFieldSelector('source=garbage-collector-controller', ['source']), event)).toBe(true);
  });
});
