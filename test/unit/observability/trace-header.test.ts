import { describe, expect, it } from 'vitest';
import { parseTraceHeader, requestTraceOf, traceIdOf } from '../../../shared/domain/trace-header.js';

const ROOT = '1-5759e988-bd862e3fe1be46a994272793';
const HEADER = `Root=${ROOT};Parent=53995c3f42cd8ad8;Sampled=1`;

describe('parseTraceHeader', () => {
  it('keeps a well-formed header, rebuilt from its Root, Parent and Sampled', () => {
    expect(parseTraceHeader(HEADER)).toBe(HEADER);
    expect(parseTraceHeader(` Sampled=0 ; Root=${ROOT} `)).toBe(`Root=${ROOT};Sampled=0`);
    expect(parseTraceHeader(`Root=${ROOT}`)).toBe(`Root=${ROOT}`);
  });

  it('drops the parts it does not carry on, and malformed Parent or Sampled values', () => {
    expect(parseTraceHeader(`${HEADER};Lineage=a87bd80c:1|68fd508a:5;Self=1-abc`)).toBe(HEADER);
    expect(parseTraceHeader(`Root=${ROOT};Parent=nothex;Sampled=yes`)).toBe(`Root=${ROOT}`);
  });

  it("refuses what is not X-Ray's shape: no Root, a bad Root, a repeated key, too long, not a string", () => {
    for (const value of [
      undefined,
      42,
      '',
      'Parent=53995c3f42cd8ad8;Sampled=1',
      'Root=1-5759e988-BD862E3FE1BE46A994272793',
      'Root=1-5759e988-bd862e3fe1be46a99427279',
      'Root=<script>alert(1)</script>',
      `Root=${ROOT};Root=1-00000000-000000000000000000000000`,
      `Root=${ROOT};Pad=${'x'.repeat(300)}`,
    ]) {
      expect(parseTraceHeader(value), String(value)).toBeUndefined();
    }
  });
});

describe('traceIdOf', () => {
  it("is a header's Root, and undefined for a malformed or absent one", () => {
    expect(traceIdOf(HEADER)).toBe(ROOT);
    expect(traceIdOf('Root=1-nope')).toBeUndefined();
    expect(traceIdOf(undefined)).toBeUndefined();
  });
});

describe('requestTraceOf', () => {
  const CALLERS = 'Root=1-00000000-111111111111111111111111;Sampled=1';

  it("in Lambda, is the invocation's own trace, never the caller's header", () => {
    const lambda = { AWS_LAMBDA_FUNCTION_NAME: 'op', _X_AMZN_TRACE_ID: `${HEADER};Lineage=x:1` };
    expect(requestTraceOf(CALLERS, lambda)).toBe(HEADER);
    expect(requestTraceOf(CALLERS, { AWS_LAMBDA_FUNCTION_NAME: 'op' })).toBeUndefined();
  });

  it("elsewhere (the local host), is the request's header when well formed", () => {
    expect(requestTraceOf(CALLERS, {})).toBe(CALLERS);
    expect(requestTraceOf('Root=evil', {})).toBeUndefined();
    expect(requestTraceOf(undefined, {})).toBeUndefined();
  });
});
