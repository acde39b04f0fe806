import { describe, expect, it } from 'vitest';
import { parseDocument } from 'yaml';
import { frontmatterValues, parseFrontmatter, setKeys, yamlText } from './frontmatter.ts';

const YAML = [
  'id: obs_0123456789abcdefghij',
  '# a comment the human wrote',
  "title: 'Quoted: kept as it is'",
  'tags: [alpha, beta]',
  'custom: {nested: [1, 2]}',
  '',
].join('\n');

describe('frontmatter parsed once per text', () => {
  it('gives each caller a document of its own: editing one leaves the next parse as the text says', () => {
    const first = parseFrontmatter(YAML);
    if (!first.ok) throw new Error(first.error);
    expect(yamlText(first.doc)).toBe(YAML);
    expect(setKeys(first.doc, { title: 'Changed', custom: undefined })).toBe(true);
    // Edited exactly as a document parsed afresh from the text is.
    const fresh = parseDocument(YAML, { uniqueKeys: true });
    setKeys(fresh, { title: 'Changed', custom: undefined });
    expect(yamlText(first.doc)).toBe(yamlText(fresh));
    expect(yamlText(first.doc)).toContain("title: 'Changed'");

    const second = parseFrontmatter(YAML);
    if (!second.ok) throw new Error(second.error);
    expect(second.doc).not.toBe(first.doc);
    expect(yamlText(second.doc)).toBe(YAML);
    expect(second.data).toEqual({
      id: 'obs_0123456789abcdefghij',
      title: 'Quoted: kept as it is',
      tags: ['alpha', 'beta'],
      custom: { nested: [1, 2] },
    });
  });

  it('hands out values that cannot be changed behind the next reader', () => {
    const values = frontmatterValues(YAML);
    if (!values.ok) throw new Error(values.error);
    expect(() => {
      (values.data['tags'] as string[]).push('gamma');
    }).toThrow(TypeError);
    const again = frontmatterValues(YAML);
    expect(again.ok && again.data['tags']).toEqual(['alpha', 'beta']);
  });

  it('reports malformed YAML every time it is asked', () => {
    expect(parseFrontmatter('a: [unclosed').ok).toBe(false);
    expect(frontmatterValues('a: [unclosed').ok).toBe(false);
    expect(parseFrontmatter('- a list\n- not a map').ok).toBe(false);
  });
});
