"""Teaching page: the paper's Figure 1 (the ideal parent idea) and Figure 4 (non-linear links),
built live with the engine.

Streamlit page (run by st.navigation). Needs no loaded data: the examples come from
:func:`engine.teaching.ideal_parent_example` and
:func:`engine.teaching.sigmoid_linearization_example`; the figures from
:mod:`explorer.teaching_plots`. Widget keys start with ``ip_teach_``.
"""

from __future__ import annotations

import streamlit as st

from engine.teaching import ideal_parent_example, sigmoid_linearization_example
from explorer.teaching_plots import (
    figure1_panel_a,
    figure1_panel_b,
    figure1_panel_c,
    figure1_panel_d,
    sigmoid_contour_figure,
    sigmoid_link_figure,
    sigmoid_loglik_figure,
)

KEY_NOISE = "ip_teach_noise"
KEY_SAMPLES = "ip_teach_samples"
KEY_SEED = "ip_teach_seed"
KEY_X2 = "ip_teach_sigmoid_x2"
KEY_SIGMA = "ip_teach_sigmoid_sigma"


@st.cache_data(show_spinner=False)
def _example(n_samples: int, noise: float, seed: int):
    return ideal_parent_example(n_samples=n_samples, noise=noise, seed=seed)


@st.cache_data(show_spinner=False)
def _sigmoid(x2: float, sigma: float):
    return sigmoid_linearization_example(x_values=(0.5, x2), sigma=sigma)


def render() -> None:
    st.title("How the ideal parent works")
    st.markdown(
        """
Learning a Bayesian network means repeatedly asking: *which variable, added as a new parent of X,
would explain X best?* Answering exactly requires refitting X's model once per candidate. The
**ideal parent** method (Elidan, Nachman & Friedman, JMLR 2007) answers it cheaply: it works out
what a *perfect* new parent would look like, then compares every real candidate with that picture.
Both figures below are computed live by the same engine the search uses.
"""
    )

    tab1, tab4 = st.tabs(["Figure 1: the ideal parent", "Figure 4: non-linear links"])

    # ------------------------------------------------------------------------- Figure 1
    with tab1:
        st.markdown(
            """
A child **X** currently has one parent **U** in a linear-Gaussian model. X is also driven by a
second, hidden cause **H** that the model does not have. Two variables are candidates for a new
parent: **Z1**, a noisy measurement of H, and **Z2**, an unrelated signal. Each curve is a
*profile*: the value of a variable in each of the instances (samples) of the data.
"""
        )
        c1_, c2_, c3_ = st.columns(3)
        noise = c1_.slider(
            "Noise",
            0.0,
            1.5,
            0.3,
            0.05,
            key=KEY_NOISE,
            help="Standard deviation of the random noise in X and in the candidates.",
        )
        n_samples = c2_.slider("Instances (M)", 10, 200, 40, 5, key=KEY_SAMPLES, help="How many samples the data has.")
        seed = c3_.number_input("Random seed", 0, 10_000, 0, 1, key=KEY_SEED, help="Draw a different example.")
        ex = _example(int(n_samples), float(noise), int(seed))
        best, other = ex.best, 1 - ex.best
        bname, oname = ex.names[2 + best], ex.names[2 + other]

        left, right = st.columns(2)
        with left:
            st.plotly_chart(figure1_panel_a(ex), key="ip_teach_fig1a")
            st.markdown(
                """
**(a) The current model.** Top: the parent U. Bottom: the child X (blue) and what the model
predicts from U alone (red dotted). The gap between them is what U cannot explain.
"""
            )
        with right:
            st.plotly_chart(figure1_panel_b(ex), key="ip_teach_fig1b")
            st.markdown(
                """
**(b) The ideal parent.** The profile a new parent would need so that, added to the model, X is
predicted with no error at all. For a linear model it is simply the gap in (a): *X minus the
prediction* (the residual). It is hypothetical: no variable in the data has to look like this.
"""
            )
        left, right = st.columns(2)
        with left:
            st.plotly_chart(figure1_panel_c(ex), key="ip_teach_fig1c")
            st.markdown(
                f"""
**(c) Comparing candidates.** Each candidate is scaled by its best factor alpha_z and laid over
the ideal profile (black dotted). **C1** and **C2** score the match in nats of log-likelihood
without refitting the model: C1 fits only the scale, C2 also the noise level. Both grow as the
angle between the two profiles shrinks.
Here {bname} (C2 = {ex.c2[best]:.2f}) follows the ideal profile much better than
{oname} (C2 = {ex.c2[other]:.2f}).
"""
            )
        with right:
            st.plotly_chart(figure1_panel_d(ex), key="ip_teach_fig1d")
            st.markdown(
                f"""
**(d) After adding the best candidate.** The model is refitted with U and {bname}: the new
prediction (purple dashed) follows X closely. The exact gain in log-likelihood is
**{ex.gain:.2f}** nats, and C1 = {ex.c1[best]:.2f} ≤ C2 = {ex.c2[best]:.2f} ≤ {ex.gain:.2f}:
for linear models the cheap scores are lower bounds on the exact gain.
"""
            )
        st.dataframe(
            {
                "candidate": list(ex.names[2:]),
                "alpha_z": ex.alpha,
                "C1": ex.c1,
                "C2": ex.c2,
                "exact gain": ex.exact,
            },
            hide_index=True,
            key="ip_teach_fig1_table",
            column_config={
                name: st.column_config.NumberColumn(format="%.3f") for name in ("alpha_z", "C1", "C2", "exact gain")
            },
        )
        st.caption(
            "Try more noise: the candidates drift away from the ideal profile and every score drops. "
            "Try more instances: the scores grow with M, since more data gives more evidence."
        )

    # ------------------------------------------------------------------------- Figure 4
    with tab4:
        st.markdown(
            """
With a **sigmoid** link, X = θ1 · sigmoid(sum of parent terms) + θ0 + noise, the response
saturates: far from the middle of the S-curve, changing the input barely changes X. The ideal
parent value Y of an instance is still found by inverting the link, Y = logit((X − θ0)/θ1), but the
comparison with a candidate now uses a *linear approximation* of the link around Y, whose slope
g'(Y) = θ1 p (1 − p) says how sensitive that instance is. In this illustration θ0 = 0 and θ1 = 1,
and x₁, x₂ are the values of X at two instances. (For a real family without parents, whose θ0 and θ1
the data cannot identify, the engine fixes θ1 = 6·max|x − mean| so that the curve is nearly
straight there; see `engine/cpd/sigmoid.py`.)
"""
        )
        c1_, c2_ = st.columns(2)
        x2 = c1_.slider(
            "Second instance x₂",
            0.55,
            0.98,
            0.85,
            0.01,
            key=KEY_X2,
            help="The first instance is x₁ = 0.5, the middle of the sigmoid.",
        )
        sigma = c2_.slider(
            "Noise level σ",
            0.02,
            0.3,
            0.1,
            0.01,
            key=KEY_SIGMA,
            help="Standard deviation of the Gaussian noise around the sigmoid.",
        )
        sl = _sigmoid(float(x2), float(sigma))
        cols = st.columns(4)
        for i in range(2):
            sub = "₁₂"[i]
            cols[2 * i].metric(f"Ideal value y{sub} (x{sub} = {sl.x[i]:.2f})", f"{sl.y[i]:.3f}")
            cols[2 * i + 1].metric(f"Slope g'(y{sub})", f"{sl.gprime[i]:.4f}")
        st.plotly_chart(sigmoid_link_figure(sl), key="ip_teach_fig4ab")
        st.markdown(
            f"""
**(a, b) Inverting the link.** Start from X on the vertical axis, go across to the S-curve and
down: that is Y. The red line is the tangent at Y. At X = {sl.x[0]:.2f} the curve is steep
(g' = {sl.gprime[0]:.4f}); at X = {sl.x[1]:.2f} it is flatter (g' = {sl.gprime[1]:.4f}), so the
same change of the parent moves X less there.
"""
        )
        st.plotly_chart(sigmoid_loglik_figure(sl), key="ip_teach_fig4cd")
        st.markdown(
            """
**(c, d) Likelihood of each instance.** How well the instance is explained if the new parent takes
the value z instead of Y. Near Y the linearized curve (red) matches the exact one (blue dotted).
The flatter the sigmoid at Y, the wider the curve: the instance is less sensitive to z.
"""
        )
        left, right = st.columns(2)
        with left:
            st.plotly_chart(sigmoid_contour_figure(sl), key="ip_teach_fig4e")
        with right:
            st.plotly_chart(sigmoid_contour_figure(sl, skewed=True), key="ip_teach_fig4f")
        st.markdown(
            """
**(e) Both instances together.** Contours of the summed log-likelihood as the candidate's values
(z1, z2) vary; the cross marks the ideal parent (Y1, Y2). The linearized contours (red) are
ellipses stretched along the less sensitive instance: a linear model would treat both instances
alike, which is wrong here. **(f)** Multiplying each coordinate by its slope g'(Y) turns the
ellipses into circles. That is what the method does for non-linear CPDs: it compares the
*weighted* profiles y·g'(y) and z·g'(y) with the linear-case formulas (JMLR Theorem 7.1). The
result is an approximation of the gain, not a bound.
"""
        )


if __name__ == "__main__":
    render()
