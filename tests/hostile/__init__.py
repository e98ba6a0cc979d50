"""Hostile and huge input (issue 19): every scenario replayed under a bounded time."""
