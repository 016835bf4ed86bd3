"""The Streamlit app's shared parts: strings (``i18n``), cached resources (``state``), widgets (``components``)."""
