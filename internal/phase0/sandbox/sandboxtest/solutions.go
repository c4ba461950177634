package sandboxtest

// LCBSolutions returns our own correct solutions to the committed
// LiveCodeBench sample problems (testdata/benchmarks/lcb/lcb_sample.jsonl),
// by question_id.
func LCBSolutions() map[string]string {
	return map[string]string{
		"2727": `class Solution:
    def countSeniors(self, details: List[str]) -> int:
        return sum(int(d[11:13]) > 60 for d in details)
`,
		"2728": `class Solution:
    def matrixSum(self, nums: List[List[int]]) -> int:
        rows = [sorted(r, reverse=True) for r in nums]
        width = max(len(r) for r in rows)
        return sum(max(r[j] for r in rows if j < len(r)) for j in range(width))
`,
		"2730": `class Solution:
    def maximumOr(self, nums: List[int], k: int) -> int:
        n = len(nums)
        suffix = [0] * (n + 1)
        for i in range(n - 1, -1, -1):
            suffix[i] = suffix[i + 1] | nums[i]
        prefix = best = 0
        for i, x in enumerate(nums):
            best = max(best, prefix | (x << k) | suffix[i + 1])
            prefix |= x
        return best
`,
		"2754": `class Solution:
    def maxStrength(self, nums: List[int]) -> int:
        best = None
        for mask in range(1, 1 << len(nums)):
            p = 1
            for i, x in enumerate(nums):
                if mask >> i & 1:
                    p *= x
            if best is None or p > best:
                best = p
        return best
`,
		"2755": `class Solution:
    def minExtraChar(self, s: str, dictionary: List[str]) -> int:
        words = set(dictionary)
        n = len(s)
        dp = [0] * (n + 1)
        for i in range(n - 1, -1, -1):
            dp[i] = dp[i + 1] + 1
            for j in range(i + 1, n + 1):
                if s[i:j] in words:
                    dp[i] = min(dp[i], dp[j])
        return dp[0]
`,
		"2756": `class Solution:
    def buyChoco(self, prices: List[int], money: int) -> int:
        a, b = sorted(prices)[:2]
        return money - a - b if a + b <= money else money
`,
		"2757": `from functools import lru_cache

class Solution:
    def count(self, num1: str, num2: str, min_sum: int, max_sum: int) -> int:
        MOD = 10**9 + 7

        def upto(s):
            digits = [int(c) for c in s]

            @lru_cache(maxsize=None)
            def go(i, total, tight):
                if total > max_sum:
                    return 0
                if i == len(digits):
                    return 1 if total >= min_sum else 0
                top = digits[i] if tight else 9
                return sum(go(i + 1, total + d, tight and d == top) for d in range(top + 1)) % MOD

            return go(0, 0, True)

        own = sum(int(c) for c in num1)
        return (upto(num2) - upto(num1) + (1 if min_sum <= own <= max_sum else 0)) % MOD
`,
		"2777": `class Solution:
    def distinctDifferenceArray(self, nums: List[int]) -> List[int]:
        return [len(set(nums[:i + 1])) - len(set(nums[i + 1:])) for i in range(len(nums))]
`,
		"1873_A": `t = int(input())
for _ in range(t):
    s = input().strip()
    print("YES" if sum(a != b for a, b in zip(s, "abc")) <= 2 else "NO")
`,
		"1873_B": `import sys
data = sys.stdin.read().split()
t = int(data[0])
pos = 1
out = []
for _ in range(t):
    n = int(data[pos]); pos += 1
    a = sorted(map(int, data[pos:pos + n])); pos += n
    a[0] += 1
    p = 1
    for x in a:
        p *= x
    out.append(str(p))
print("\n".join(out))
`,
		"1873_D": `t = int(input())
for _ in range(t):
    n, k = map(int, input().split())
    s = input().strip()
    i = ops = 0
    while i < n:
        if s[i] == 'B':
            ops += 1
            i += k
        else:
            i += 1
    print(ops)
`,
		"1883_B": `from collections import Counter
t = int(input())
for _ in range(t):
    n, k = map(int, input().split())
    s = input().strip()
    odd = sum(v % 2 for v in Counter(s).values())
    print("YES" if odd - 1 <= k else "NO")
`,
		"1883_C": `def solve(k, a):
    best = min((k - x % k) % k for x in a)
    if k == 4:
        evens = sum(1 for x in a if x % 2 == 0)
        best = min(best, max(0, 2 - evens))
    return best

t = int(input())
for _ in range(t):
    n, k = map(int, input().split())
    a = list(map(int, input().split()))
    print(solve(k, a))
`,
		"1899_A": `for _ in range(int(input())):
    n = int(input())
    print("First" if n % 3 else "Second")
`,
		"1899_B": `import sys

def main():
    data = sys.stdin.buffer.read().split()
    t = int(data[0])
    pos = 1
    out = []
    for _ in range(t):
        n = int(data[pos]); pos += 1
        a = list(map(int, data[pos:pos + n])); pos += n
        best = 0
        for k in range(1, n + 1):
            if n % k:
                continue
            sums = [sum(a[i:i + k]) for i in range(0, n, k)]
            best = max(best, max(sums) - min(sums))
        out.append(best)
    sys.stdout.write("\n".join(map(str, out)) + "\n")

main()
`,
		"1899_C": `def best_alternating(a):
    best = cur = a[0]
    for i in range(1, len(a)):
        if a[i] % 2 != a[i - 1] % 2:
            cur = max(cur, 0) + a[i]
        else:
            cur = a[i]
        best = max(best, cur)
    return best

if __name__ == "__main__":
    t = int(input())
    for _ in range(t):
        n = int(input())
        print(best_alternating(list(map(int, input().split()))))
`,
	}
}

// LCBWrongSolutions returns programs that fail the public tests of their
// problem, by question_id.
func LCBWrongSolutions() map[string]string {
	return map[string]string{
		// Off by the boundary: counts 40-year-olds too.
		"2727": `class Solution:
    def countSeniors(self, details: List[str]) -> int:
        return sum(int(d[11:13]) >= 40 for d in details)
`,
		// Ignores the sign: takes the product of the absolute values.
		"2754": `class Solution:
    def maxStrength(self, nums: List[int]) -> int:
        p = 1
        for x in nums:
            p *= abs(x)
        return p
`,
		// Always the first player.
		"1899_A": `for _ in range(int(input())):
    input()
    print("First")
`,
		// Forgets that digits can be 0: increases the largest digit.
		"1873_B": `for _ in range(int(input())):
    input()
    a = sorted(map(int, input().split()))
    a[-1] += 1
    p = 1
    for x in a:
        p *= x
    print(p)
`,
	}
}
