import { describe, expect, it } from 'vitest';
import { notFixedReport, notFixedWork } from './not-fixed.ts';

describe('the user saying the work did not do it', () => {
  it('is a short message that says only that', () => {
    expect(notFixedReport(["Still doesn't work."])).toBe("Still doesn't work.");
    expect(notFixedReport(['same error']).length).toBeGreaterThan(0);
    // A question, a new request beside it, or a long message is read on its own.
    expect(notFixedReport(['still not working?'])).toBe('');
    expect(notFixedReport(["It doesn't work. Also add a dark mode toggle. And a footer."])).toBe('');
    expect(notFixedReport(['The toggle works now, thanks'])).toBe('');
    expect(notFixedReport(["Still doesn't work.", 'try again'])).toBe('');
  });

  it('tells the work as tried, with the user’s words, once', () => {
    const work = {
      title: 'The toggle now updates the chart when checked',
      type: 'bugfix' as const,
      facts: ['script.js: changed init'],
    };
    const tried = notFixedWork(work, "Still doesn't work.");
    expect(tried).toEqual({
      title: "Tried: The toggle now updates the chart when checked — the user: “Still doesn't work.”",
      type: 'change',
      facts: ['script.js: changed init', "not fixed: the user said “Still doesn't work.”"],
    });
    expect(notFixedWork({ ...work, ...tried }, "Still doesn't work.")).toEqual(tried);
  });
});
