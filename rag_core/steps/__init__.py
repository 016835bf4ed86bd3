"""The named steps of one answer: route, build query, retrieve, judge, assemble evidence, generate,
review. Each step is a small function with typed input and output; ``rag_core.pipeline`` only
calls them in order and passes their events on to the UI.
"""
