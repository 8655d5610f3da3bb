import assert from 'node:assert/strict';
import { agentDescription } from '../../../src/chat/agentLabel';

describe('agent picker descriptions', () => {
  it('names a sandbox agent "Sandbox", never its URL with a random port', () => {
    assert.equal(
      agentDescription('http://127.0.0.1:41233/ai/api/v1/public/sandbox/agents/2', true),
      'Sandbox',
    );
  });

  it('names a platform agent by host and account', () => {
    assert.equal(
      agentDescription('https://ai.example.com/api/v1/public/acme%20co/agents/7', false),
      'ai.example.com · account acme co',
    );
    assert.equal(agentDescription('https://ai.example.com:8443/other', false), 'ai.example.com:8443');
  });

  it('keeps an unparsable URL as it is rather than failing the picker', () => {
    assert.equal(agentDescription('not a url', false), 'not a url');
  });
});
