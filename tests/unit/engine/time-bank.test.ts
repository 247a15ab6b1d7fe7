import { describe, expect, it } from 'vitest';
import { TimeBank } from '../../../src/engine/index';

describe('TimeBank: a game banks what its moves leave of their budget', () => {
  it('starts empty, banks what each move leaves and offers a whole extension once it holds one', () => {
    const bank = new TimeBank(50, 3);
    expect(bank.extraMs()).toBe(0);
    bank.record(30);
    expect(bank.balanceMs).toBe(20);
    expect(bank.extraMs()).toBe(0); // 20 banked, an extension is 100
    bank.record(0);
    bank.record(10);
    expect(bank.balanceMs).toBe(110);
    expect(bank.extraMs()).toBe(100);
  });

  it('gives a move at most (factor − 1) budgets beyond its own, however much is banked', () => {
    const bank = new TimeBank(20, 3);
    for (let i = 0; i < 100; i++) bank.record(0);
    expect(bank.balanceMs).toBe(2000);
    expect(bank.extraMs()).toBe(40);
  });

  it('pays a long move from the bank and never goes below zero', () => {
    const bank = new TimeBank(50, 2);
    bank.record(0);
    bank.record(0);
    expect(bank.extraMs()).toBe(50);
    bank.record(120); // 70 beyond its budget, from 100 banked
    expect(bank.balanceMs).toBe(30);
    expect(bank.extraMs()).toBe(0);
    bank.record(500);
    expect(bank.balanceMs).toBe(0);
  });

  it('with factor 1 never gives extra time', () => {
    const bank = new TimeBank(50, 1);
    bank.record(0);
    expect(bank.extraMs()).toBe(0);
  });

  it('ignores a time that is not a duration', () => {
    const bank = new TimeBank(50, 2);
    bank.record(Number.NaN);
    bank.record(-5);
    expect(bank.balanceMs).toBe(0);
  });

  it('refuses a budget or factor that means nothing', () => {
    expect(() => new TimeBank(0, 2)).toThrow(/budget/);
    expect(() => new TimeBank(Infinity, 2)).toThrow(/budget/);
    expect(() => new TimeBank(50, 0.5)).toThrow(/factor/);
    expect(() => new TimeBank(50, Number.NaN)).toThrow(/factor/);
  });
});
