"""The Streamlit explorer: session state, sidebar, figures and one module per page."""
