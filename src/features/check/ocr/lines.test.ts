import { cleanLine, isKeyboardRow, joinLines, messageLines, readingFromPage, type ReadLine } from './lines';

const line = (text: string, top: number, extra: Partial<ReadLine> = {}): ReadLine => ({
  text,
  top,
  bottom: top + 20,
  left: 10,
  right: 300,
  confidence: 90,
  ...extra,
});

describe('joinLines', () => {
  it('joins a mobile number a bubble wrapped, and keeps other line breaks', () => {
    expect(joinLines(['or text Maya 0927', '111 2233 now', 'Thanks'])).toBe(
      'or text Maya 0927 111 2233 now\nThanks',
    );
    expect(joinLines(['call +63 917', '555 0142'])).toBe('call +63 917 555 0142');
  });

  it('does not join a whole number to the next line, nor digits that make no mobile number', () => {
    expect(joinLines(['call 0917 555 0142', '2 times'])).toBe('call 0917 555 0142\n2 times');
    expect(joinLines(['Dec 3 at 10', '30 people'])).toBe('Dec 3 at 10\n30 people');
  });

  it('joins a link wrapped at its own hyphen, slash or dot, or inside its host', () => {
    expect(joinLines(['Verify at https://gcash-', 'verify.com/login now'])).toBe(
      'Verify at https://gcash-verify.com/login now',
    );
    expect(joinLines(['at gcash-verify-', 'ph.com/login'])).toBe('at gcash-verify-ph.com/login');
    expect(joinLines(['see https://x.com/', 'claim?id=1'])).toBe('see https://x.com/claim?id=1');
    expect(joinLines(['mail agent@', 'gcash-help.top'])).toBe('mail agent@gcash-help.top');
    expect(joinLines(['go to https://www.example.', 'com/path'])).toBe('go to https://www.example.com/path');
  });

  it('keeps a sentence that ends with a link apart from the next line', () => {
    expect(joinLines(['Visit bdo.com.ph.', 'Thank you'])).toBe('Visit bdo.com.ph.\nThank you');
    expect(joinLines(['Visit https://bdo.com.ph', 'today'])).toBe('Visit https://bdo.com.ph\ntoday');
  });

  it('joins a long link or wallet broken at any character only where its line is full', () => {
    const long = 'https://unionbank-unlock-ph.co';
    expect(joinLines([{ text: long, full: true }, { text: 'm/account' }])).toBe(`${long}m/account`);
    expect(joinLines([{ text: long, full: false }, { text: 'm/account' }])).toBe(`${long}\nm/account`);
    expect(
      joinLines([{ text: 'wallet TQn9Y2khEsLJW1ChVWFMSMeRDo', full: true }, { text: 'w5KcbLSE then' }]),
    ).toBe('wallet TQn9Y2khEsLJW1ChVWFMSMeRDow5KcbLSE then');
  });
});

describe('cleanLine', () => {
  it('drops bars and brackets standing alone at the ends (bubble edges, a bezel)', () => {
    expect(cleanLine('| ike at follow lang ng shops. |')).toBe('ike at follow lang ng shops.');
    expect(cleanLine('! 7788 para sa first task.')).toBe('7788 para sa first task.');
    expect(cleanLine('Interested po ako, paano? )')).toBe('Interested po ako, paano?');
  });

  it("mends OCR's usual misreadings inside links", () => {
    expect(cleanLine('Unlock at https:/funionbank-unlock-')).toBe('Unlock at https://unionbank-unlock-');
    expect(cleanLine('at hitps:/igcash-verify-')).toBe('at https://gcash-verify-');
    expect(cleanLine('secure at https:/bpi-secure-')).toBe('secure at https://bpi-secure-');
    expect(cleanLine('https://facebook.com/x')).toBe('https://facebook.com/x');
    expect(cleanLine('Telegram t.mefshopeetaskjoy or')).toBe('Telegram t.me/shopeetaskjoy or');
    expect(cleanLine('sa Ibc-ph-delivery.top/pay bago')).toBe('sa lbc-ph-delivery.top/pay bago');
    expect(cleanLine('from BDO.COM.PH')).toBe('from BDO.COM.PH');
  });
});

describe('keyboard and status bar', () => {
  it('knows a keyboard row even when OCR merges or misses keys', () => {
    expect(isKeyboardRow('q w e r t y u i o p')).toBe(true);
    expect(isKeyboardRow('gq wer r ty ui op')).toBe(true);
    expect(isKeyboardRow('aw e r ty yg | op')).toBe(true);
    expect(isKeyboardRow('a s d f g h j k l')).toBe(true);
    expect(isKeyboardRow('Ok po, see you at 7')).toBe(false);
    expect(isKeyboardRow('I am at the mall')).toBe(false);
  });

  it('drops the status bar of a phone screenshot, the keyboard and below, and its suggestions', () => {
    const lines = [
      line('9:41 LTE 87%', 5),
      line('GCash', 60),
      line('Verify at gcash-verify.com', 300),
      line('po | ako | ok', 1500),
      line('q w e r t y u i o p', 1600),
      line('a s d f g h j k l', 1700),
    ];
    expect(messageLines(lines, 2400, true).map((l) => l.text)).toEqual([
      'GCash',
      'Verify at gcash-verify.com',
    ]);
    // Not a phone screen: a clock at the top may be part of the message.
    expect(messageLines([line('Meet at 9:41 sharp', 5)], 2400, false).map((l) => l.text)).toEqual([
      'Meet at 9:41 sharp',
    ]);
  });
});

describe('readingFromPage', () => {
  it('reads chat bubbles top to bottom, joins wrapped identifiers and weighs confidence by length', () => {
    const bbox = (y: number, x0 = 20, x1 = 500) => ({ x0, y0: y, x1, y1: y + 30 });
    const reading = readingFromPage(
      {
        blocks: [
          {
            paragraphs: [
              {
                lines: [
                  { text: 'Send to Maya 0927\n', confidence: 90, bbox: bbox(400) },
                  { text: '111 2233 po\n', confidence: 60, bbox: bbox(440) },
                ],
              },
            ],
          },
          { paragraphs: [{ lines: [{ text: 'Hello po\n', confidence: 95, bbox: bbox(200, 300, 520) }] }] },
        ],
      },
      1200,
      true,
    );
    expect(reading.text).toBe('Hello po\nSend to Maya 0927 111 2233 po');
    expect(reading.lines).toBe(3);
    expect(reading.confidence).toBeCloseTo((8 * 95 + 17 * 90 + 11 * 60) / 36, 5);
  });
});
