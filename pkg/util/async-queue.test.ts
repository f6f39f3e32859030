import { expect } from 'chai';
import { AsyncQueue } from './async-queue.js';

describe('util/async-queue', () => {
  it('listen: the buffered items first, then each push in the pusher\'s call, and the end once', () => {
    const q = new AsyncQueue<number>();
    q.push(1);
    q.push(2);
    const seen: string[] = [];
    q.listen({
      onItem: (n) => {
        seen.push(String(n));
        // One pushed by the listener while the buffered ones are handed over comes next.
        if (n === 1) q.push(3);
      },
      onEnd: () => seen.push('end'),
    });
    expect(seen).to.deep.equal(['1', '2', '3']);
    q.push(4);
    expect(seen).to.deep.equal(['1', '2', '3', '4']);
    q.close();
    q.close();
    q.push(5);
    expect(seen).to.deep.equal(['1', '2', '3', '4', 'end']);
  });

  it('listen on a closed queue hands over what it held, then ends', () => {
    const q = new AsyncQueue<string>();
    q.push('a');
    q.close();
    const seen: string[] = [];
    q.listen({ onItem: (s) => seen.push(s), onEnd: () => seen.push('end') });
    expect(seen).to.deep.equal(['a', 'end']);
  });

  it('a listener that closes the queue from its callback is ended once', () => {
    const q = new AsyncQueue<string>();
    const seen: string[] = [];
    q.listen({ onItem: (s) => { seen.push(s); q.close(); }, onEnd: () => seen.push('end') });
    q.push('x');
    q.push('y');
    expect(seen).to.deep.equal(['x', 'end']);
  });
});
